import { execFile } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startService } from '../test/helpers/service';
import { BENCH_DIR } from './bench-files';
import { bigVideo } from './big-video';
import { compare, rssMb, timeBest, type Benchmark } from './harness';
import { curlUpload, peakRssWhile } from './service-upload-run';

const run = promisify(execFile);
const SIZE = 2 * 1024 ** 3;

const bench: Benchmark = {
  name: 'service-upload',
  description:
    'the service receiving a 2 GB upload (curl -F as the client) vs `cp` of the same file; service RSS idle vs during',
  async run() {
    const file = await bigVideo(SIZE);
    const bytes = (await stat(file)).size;
    const copy = join(BENCH_DIR, 'cp-target.mp4');
    const cpSeconds = await timeBest(2, async () => {
      await rm(copy, { force: true });
      await run('cp', [file, copy]);
    });
    await rm(copy, { force: true });

    const service = await startService({ config: { indexer: { paused: true } }, credits: 1000 });
    try {
      const idle = await rssMb(service.pid);
      const { result: uploadSeconds, peakMb: peak } = await peakRssWhile(service.pid, () =>
        timeBest(2, () => curlUpload(service, file)),
      );
      return [
        compare(
          'service ingest of a 2 GB upload (multipart parse, SHA-256, write, ffprobe)',
          {
            label: 'curl -F -> reelsync service',
            seconds: uploadSeconds,
            amount: bytes,
            unit: 'bytes',
            peakRssMb: peak,
          },
          { label: 'cp (same file, same disk)', seconds: cpSeconds, amount: bytes, unit: 'bytes', peakRssMb: idle },
          '>= 0.5x; memory flat: peak RSS during upload close to idle (baseline line shows idle RSS)',
        ),
      ];
    } finally {
      await service.stop();
    }
  },
};

export default bench;
