import { execFile } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startService } from '../test/helpers/service';
import { BENCH_DIR } from './bench-files';
import { bigVideo } from './big-video';
import { compare, rssMb, type Benchmark } from './harness';
import { curlUpload, deleteVideo, peakRssWhile, timeBestInTurns } from './service-upload-run';
import { uploadToBareReceiver, sha256OfFile } from './upload-floor';

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
    const service = await startService({ config: { indexer: { paused: true } }, credits: 1000 });
    try {
      const idle = await rssMb(service.pid);
      let uploaded = '';
      // In turns, so that the others' load on this shared machine falls on the service and its baselines alike.
      const { result: best, peakMb: peak } = await peakRssWhile(service.pid, () =>
        timeBestInTurns(3, {
          cp: { run: () => run('cp', [file, copy]), after: () => rm(copy, { force: true }) },
          bare: () => uploadToBareReceiver(file),
          hash: () => sha256OfFile(file),
          service: {
            run: async () => (uploaded = await curlUpload(service, file)),
            after: () => deleteVideo(service, uploaded),
          },
        }),
      );
      const { cp: cpSeconds, bare: bareSeconds, hash: hashSeconds, service: uploadSeconds } = best;
      const cp = { label: 'cp (same file, same disk)', seconds: cpSeconds, amount: bytes, unit: 'bytes' };
      const bare = { label: 'curl -F -> bare Node receiver', seconds: bareSeconds, amount: bytes, unit: 'bytes' };
      return [
        compare(
          'service ingest of a 2 GB upload (multipart parse, write, SHA-256 in its thread, ffprobe)',
          {
            label: 'curl -F -> reelsync service',
            seconds: uploadSeconds,
            amount: bytes,
            unit: 'bytes',
            peakRssMb: peak,
          },
          { ...cp, peakRssMb: idle },
          '>= 0.5x; memory flat: peak RSS during upload close to idle (baseline line shows idle RSS)',
        ),
        // The floors: cp copies page to page inside the kernel (copy_file_range); an upload crosses loopback twice.
        compare('floor: receiving the same upload over loopback and dropping it (no parse, hash or write)', bare, cp),
        compare(
          'floor: the SHA-256 the service records, over the file from the page cache (one core)',
          { label: 'Node SHA-256 of the file', seconds: hashSeconds, amount: bytes, unit: 'bytes' },
          cp,
        ),
        compare(
          'service ingest against the bare receiver',
          { label: 'curl -F -> reelsync service', seconds: uploadSeconds, amount: bytes, unit: 'bytes' },
          bare,
        ),
      ];
    } finally {
      await service.stop();
    }
  },
};

export default bench;
