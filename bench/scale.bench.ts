import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { parseConfig } from '../src/server/config';
import { openBlobStore } from '../src/server/storage/open-blob-store';
import { startService, type TestService } from '../test/helpers/service';
import { BENCH_DIR } from './bench-files';
import { bigVideo } from './big-video';
import { compare, rssMb, timeBest, type Benchmark } from './harness';
import { curlUpload, peakRssWhile } from './service-upload-run';

const run = promisify(execFile);
const SIZE = 1024 ** 3;
/** A second, smaller upload: flat memory means the same peak whatever the size. */
const SMALLER = 300e6;

/** curl's own SigV4 signing, to the same s3rver and bucket the service writes to. */
async function curlPut(service: TestService, file: string): Promise<void> {
  const s3 = service.s3!;
  const { stdout } = await run('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-T',
    file,
    '--aws-sigv4',
    `aws:amz:${s3.config.region}:s3`,
    '--user',
    `${s3.env.AWS_ACCESS_KEY_ID}:${s3.env.AWS_SECRET_ACCESS_KEY}`,
    '-H',
    'x-amz-content-sha256: UNSIGNED-PAYLOAD',
    `${s3.endpoint}/${s3.bucket}/bench/curl-put.mp4`,
  ]);
  if (stdout !== '200') throw new Error(`curl PUT answered ${stdout}`);
}

const bench: Benchmark = {
  name: 'scale',
  description:
    'team backend, part one: a 1 GiB upload through the service into S3 (s3rver) vs `curl` PUT of the same file to ' +
    'the same server; service RSS idle vs during',
  async run() {
    const file = await bigVideo(SIZE);
    const bytes = (await stat(file)).size;
    const smaller = await bigVideo(SMALLER);
    const smallerBytes = (await stat(smaller)).size;
    const service = await startService({ backend: 's3', config: { indexer: { paused: true } }, credits: 1000 });
    try {
      const idle = await rssMb(service.pid);
      const { peakMb: smallerPeak } = await peakRssWhile(service.pid, () => curlUpload(service, smaller));
      const curlSeconds = await timeBest(2, () => curlPut(service, file));
      const { result: uploadSeconds, peakMb } = await peakRssWhile(service.pid, () =>
        timeBest(2, () => curlUpload(service, file)),
      );
      // The store alone, in this process: what the S3 leg costs (multipart on s3rver) without HTTP in, hashing, probing.
      const s3 = service.s3!;
      const store = await openBlobStore(parseConfig({ storage: { s3: s3.config } }), BENCH_DIR, BENCH_DIR, s3.env);
      const benchIdle = await rssMb(process.pid);
      const { result: storeSeconds, peakMb: storePeak } = await peakRssWhile(process.pid, () =>
        timeBest(2, () => store.writeFrom('reelsync-1', 'bench/store.mp4', createReadStream(file))),
      );
      const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
      return [
        {
          what: 'service peak RSS by upload size (S3 backend): flat means no growth with the size',
          lines: [
            `idle ${idle.toFixed(0)} MB; ${mb(smallerBytes)} upload: peak ${smallerPeak.toFixed(0)} MB; ${mb(bytes)} upload: peak ${peakMb.toFixed(0)} MB`,
          ],
        },
        compare(
          'upload to S3 (multipart parse, SHA-256, ffprobe, lib-storage multipart upload)',
          {
            label: 'curl -F -> service -> S3',
            seconds: uploadSeconds,
            amount: bytes,
            unit: 'bytes',
            peakRssMb: peakMb,
          },
          { label: 'curl PUT -> same s3rver', seconds: curlSeconds, amount: bytes, unit: 'bytes', peakRssMb: idle },
          'memory flat: service peak RSS during upload close to idle (baseline line shows idle RSS)',
        ),
        compare(
          'the S3 leg alone: S3BlobStore.writeFrom of the same file (lib-storage, 8 MiB parts, 4 in flight)',
          { label: 'S3BlobStore -> s3rver', seconds: storeSeconds, amount: bytes, unit: 'bytes', peakRssMb: storePeak },
          {
            label: 'curl PUT -> same s3rver',
            seconds: curlSeconds,
            amount: bytes,
            unit: 'bytes',
            peakRssMb: benchIdle,
          },
          'memory flat (baseline line shows this process idle)',
        ),
      ];
    } finally {
      await service.stop();
    }
  },
};

export default bench;
