import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPullRelay } from '../src/server/security/pull-relay';
import { bigVideo } from './big-video';
import { command, compare, timeBest, type Benchmark } from './harness';

const SIZE = 300 * 1000 * 1000;

/** ffmpeg copying the whole input to nowhere, as the live pull does (minus the segment files). */
const pull = (url: string): Promise<string> =>
  command('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'http,tcp',
    '-i',
    url,
    '-map',
    '0',
    '-c',
    'copy',
    '-f',
    'null',
    '-',
  ]);

const bench: Benchmark = {
  name: 'pull-relay',
  description:
    'ffmpeg reading a 300 MB mp4 over loopback HTTP through the live-pull relay (guarded fetch, re-served) vs straight from the server',
  async run() {
    const file = await bigVideo(SIZE);
    const size = (await stat(file)).size;
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const source = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.mp4`;
    const relay = await startPullRelay(source, { allowPrivateTargets: true });
    try {
      await pull(source); // page cache warm for both
      const ours = await timeBest(3, () => pull(relay.url));
      const base = await timeBest(3, () => pull(source));
      return [
        compare(
          'live-pull read throughput',
          { label: 'ffmpeg via the pull relay', seconds: ours, amount: size, unit: 'bytes' },
          { label: 'ffmpeg straight from the server', seconds: base, amount: size, unit: 'bytes' },
          '>= 0.5x',
        ),
      ];
    } finally {
      await relay.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  },
};

export default bench;
