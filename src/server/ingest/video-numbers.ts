import { randomInt } from 'node:crypto';

/** A new video's number as both interfaces give it: VI, the time in ms, six random digits. */
export function newVideoNo(): string {
  return `VI${Date.now()}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}
