import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LocalServer } from './datalake';

const run = promisify(execFile);

/** Cuts a clip into 1 s HLS segments (a keyframe each second) under dir; returns segment names and durations. */
export async function makeHls(input: string, dir: string): Promise<{ name: string; duration: number }[]> {
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    input,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-g',
    '30',
    '-keyint_min',
    '30',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-f',
    'hls',
    '-hls_time',
    '1',
    '-hls_list_size',
    '0',
    '-hls_segment_filename',
    join(dir, 's%d.ts'),
    join(dir, 'full.m3u8'),
  ]);
  const lines = (await readFile(join(dir, 'full.m3u8'), 'utf8')).split('\n');
  const segments: { name: string; duration: number }[] = [];
  lines.forEach((line, i) => {
    const m = /^#EXTINF:([\d.]+)/.exec(line);
    const name = lines[i + 1];
    if (m && name) segments.push({ name: name.trim(), duration: Number(m[1]) });
  });
  return segments;
}

/**
 * A live HLS source: from the first playlist request on, one more segment appears every `everyMs`; the playlist gets
 * its ENDLIST `holdMs` after the last one, like a broadcast that ends, or when `end()` is called (`holdMs` Infinity:
 * only then, so a test can keep the source live until it has seen what it waits for, however slow the machine).
 */
export async function startLiveHls(
  dir: string,
  segments: { name: string; duration: number }[],
  everyMs: number,
  holdMs: number,
  host = '127.0.0.1',
): Promise<LocalServer & { ended(): boolean; end(): void; playlistRequests(): number }> {
  let t0 = 0;
  let playlistRequests = 0;
  let endedByCall = false;
  const visible = (): number => (t0 ? Math.min(segments.length, 1 + Math.floor((Date.now() - t0) / everyMs)) : 0);
  // Ended once every segment is out and the hold is over (or end() was called): the broadcast never cuts itself short.
  const ended = (): boolean =>
    visible() === segments.length && (endedByCall || Date.now() - t0 >= (segments.length - 1) * everyMs + holdMs);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/live.m3u8') {
      playlistRequests += 1;
      t0 ||= Date.now();
      const shown = segments.slice(0, visible());
      const body = [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:1',
        '#EXT-X-MEDIA-SEQUENCE:0',
        ...shown.flatMap((s) => [`#EXTINF:${s.duration.toFixed(6)},`, s.name]),
        ...(ended() ? ['#EXT-X-ENDLIST'] : []),
      ];
      res
        .writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'no-cache' })
        .end(`${body.join('\n')}\n`);
      return;
    }
    const seg = segments.find((s) => `/${s.name}` === path);
    if (!seg) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(dir, seg.name)).then(
      (data) => res.writeHead(200, { 'content-type': 'video/mp2t' }).end(data),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    ended,
    playlistRequests: () => playlistRequests,
    end: () => {
      endedByCall = true;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
