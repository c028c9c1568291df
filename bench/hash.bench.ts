import { sha256File } from '../src/main/sync/hasher';
import { randomFile } from './bench-files';
import { command, compare, timeBest, type Benchmark } from './harness';

const SIZE = 1024 * 1024 * 1024;

const bench: Benchmark = {
  name: 'hash',
  description: 'streamed SHA-256 of a 1 GiB file (page cache warm) vs `openssl dgst -sha256` on the same file',
  async run() {
    const file = await randomFile('hash-1g.bin', SIZE);
    let ours = '';
    let theirs = '';
    await sha256File(file); // warm the page cache for both
    const oursSeconds = await timeBest(3, async () => (ours = await sha256File(file)));
    const baseSeconds = await timeBest(
      3,
      async () => (theirs = (await command('openssl', ['dgst', '-sha256', '-r', file])).split(' ')[0] ?? ''),
    );
    if (ours !== theirs) throw new Error(`digests differ: ${ours} vs ${theirs}`);
    return [
      compare(
        'SHA-256 throughput',
        { label: 'reelsync sha256File', seconds: oursSeconds, amount: SIZE, unit: 'bytes' },
        { label: 'openssl dgst -sha256', seconds: baseSeconds, amount: SIZE, unit: 'bytes' },
        '>= 0.9x',
      ),
    ];
  },
};

export default bench;
