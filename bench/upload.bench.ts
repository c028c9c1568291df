import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import pino from 'pino';
import { LibraryClient } from '../src/main/api/client';
import { startService } from '../test/helpers/service';
import { bigVideo } from './big-video';
import { compare, timeBest, type Benchmark } from './harness';

const run = promisify(execFile);
const SIZE = 2 * 1024 ** 3;

const bench: Benchmark = {
  name: 'upload',
  description:
    'client upload of a 2 GB video (LibraryClient: streamed multipart over undici) vs `curl -F` to the same service in the same run',
  async run() {
    const file = await bigVideo(SIZE);
    const bytes = (await stat(file)).size;
    const service = await startService({ config: { indexer: { paused: true } }, credits: 1000 });
    const client = new LibraryClient({ baseUrl: service.baseUrl, key: service.key, logger: pino({ level: 'silent' }) });
    try {
      const idle = process.memoryUsage().rss / 1024 / 1024;
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / 1024 / 1024)), 50);
      const ours = await timeBest(2, async () => {
        await client.upload(file, bytes, { tags: ['bench'] });
      });
      clearInterval(sampler);
      const curl = await timeBest(2, async () => {
        const { stdout } = await run('curl', [
          '-sS',
          '-H',
          `Authorization: ${service.key}`,
          '-F',
          `file=@${file};type=video/mp4`,
          '-F',
          'tags[0]=bench',
          `${service.baseUrl}/upload`,
        ]);
        if (!stdout.includes('"code":"0000"')) throw new Error(`curl upload failed: ${stdout}`);
      });
      return [
        compare(
          `upload of ${(bytes / 1024 ** 3).toFixed(2)} GiB to the local service (client RSS idle ${idle.toFixed(0)} MB)`,
          { label: 'reelsync LibraryClient.upload', seconds: ours, amount: bytes, unit: 'bytes', peakRssMb: peak },
          { label: 'curl -F', seconds: curl, amount: bytes, unit: 'bytes' },
          '>= 0.9x, client peak RSS < 150 MB',
        ),
      ];
    } finally {
      await client.close();
      await service.stop();
    }
  },
};

export default bench;
