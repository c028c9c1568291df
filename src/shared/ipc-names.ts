import type { EventName } from './contract';

/** Electron channel that carries one contract event from main to renderer. */
export function eventChannel(event: EventName): string {
  return `event:${event}`;
}
