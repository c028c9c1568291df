import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { UPLOAD_LIMITS } from '../../src/shared/api-types';
import { fixturePath } from '../fixtures/media';
import { skipPostgresTests } from '../helpers/postgres';
import { startTeamCluster, type TeamCluster } from '../helpers/team-cluster';
import { startThrottleProxy, type ThrottleProxy } from '../helpers/throttle-proxy';

/** The store's rate: a real bucket over a fast link, where s3rver on loopback takes bytes as fast as the disk. */
const STORE_BYTES_PER_SECOND = 90e6;
/** Just under the 3 GiB limit: the largest take the service accepts. */
const SIZE = UPLOAD_LIMITS.maxBytes - 1024 * 1024;
const IDLE_TIMEOUT_MS = 60_000;
const BOUNDARY = 'reelsync-largest-take';
const MIB = 1024 * 1024;

let cluster: TeamCluster;
let proxy: ThrottleProxy | undefined;
/** Bytes the store had been sent when the client sent its last byte. */
let storedByLastByte = 0;

beforeAll(async () => {
  cluster = await startTeamCluster({
    apis: 1,
    workers: 0,
    credits: 1000,
    config: { http: { idleTimeoutMs: IDLE_TIMEOUT_MS } },
    storeEndpoint: async (s3) => {
      proxy = await startThrottleProxy(s3.endpoint, STORE_BYTES_PER_SECOND);
      return proxy.endpoint;
    },
  });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
  await proxy?.stop();
});

/**
 * A real h264 mp4 followed by a `free` box up to `size` bytes: the demuxer skips the box, so the probe accepts it as
 * the short clip it is, while every byte still travels through the service into the store.
 */
function* largestTake(video: Buffer, size: number): Generator<Buffer> {
  yield video;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(size - video.length, 0);
  header.write('free', 4, 'latin1');
  yield header;
  const zeros = Buffer.alloc(MIB);
  for (let left = size - video.length - header.length; left > 0; left -= zeros.length)
    yield left >= zeros.length ? zeros : zeros.subarray(0, left);
}

function rssMb(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((s) => Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024);
}

interface Answer {
  status: number;
  body: string;
  lastByteMs: number;
  answerMs: number;
  /** `102 Processing` answers that kept the connection alive after the last byte. */
  processing: number;
}

/** POST /upload of the generated take, written as the socket takes it; when its last byte went and the answer came. */
function upload(baseUrl: string, key: string, take: () => Generator<Buffer>, size: number): Promise<Answer> {
  // Fields first and the file last, as curl -F, fetch's FormData and Reelsync's client send them: the service foresees
  // the file's length and streams it into S3 as one PUT (a file followed by fields goes as parts: blob-stores.test.ts).
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="tags[0]"\r\n\r\nlargest\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="take.mp4"\r\n` +
      'Content-Type: video/mp4\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return new Promise((resolve, reject) => {
    let lastByteMs = 0;
    let processing = 0;
    const req = request(`${baseUrl}/upload`, {
      method: 'POST',
      headers: {
        authorization: key,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.on('error', reject);
    req.on('information', () => processing++);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, lastByteMs, answerMs: performance.now(), processing }),
      );
    });
    const chunks = (function* () {
      yield head;
      yield* take();
      yield tail;
    })();
    const pump = (): void => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(() => {
        lastByteMs = performance.now();
        storedByLastByte = proxy!.bytesIn;
      });
    };
    pump();
  });
}

it.skipIf(skipPostgresTests)(
  'takes the largest upload (3 GiB) through an API replica into a store slowed to 90 MB/s with a 60 s idle timeout: ' +
    'in the store as it arrives, answered once the store completes it, memory flat',
  async () => {
    const video = await readFile(fixturePath('phoneH264Mp4'));
    const sent = createHash('sha256');
    for (const chunk of largestTake(video, SIZE)) sent.update(chunk);
    const replica = cluster.apis[0]!;
    const idle = await rssMb(replica.pid);
    let peak = idle;
    const sampler = setInterval(() => {
      rssMb(replica.pid).then(
        (mb) => (peak = Math.max(peak, mb)),
        () => {},
      );
    }, 200);
    const started = performance.now();
    const answer = await upload(replica.baseUrl, cluster.key, () => largestTake(video, SIZE), SIZE).finally(() =>
      clearInterval(sampler),
    );
    const seconds = (answer.answerMs - started) / 1000;
    const afterLastByte = (answer.answerMs - answer.lastByteMs) / 1000;
    console.log(
      `largest upload: ${(SIZE / 1e9).toFixed(2)} GB in ${seconds.toFixed(1)} s (${(SIZE / 1e6 / seconds).toFixed(0)} MB/s), ` +
        `answered ${afterLastByte.toFixed(1)} s after the last byte (${answer.processing} x 102 Processing meanwhile), ` +
        `${(storedByLastByte / 1e9).toFixed(2)} GB in the store by then; replica RSS ${idle.toFixed(0)} MB idle, ${peak.toFixed(0)} MB peak`,
    );
    expect(answer.status, answer.body).toBe(200);
    const { data } = z
      .object({ code: z.literal('0000'), data: z.object({ videoNo: z.string() }) })
      .parse(JSON.parse(answer.body));
    const [row] = await cluster.rows(
      z.object({ size: z.coerce.number(), sha256: z.string(), blob: z.string() }),
      'SELECT size, sha256, blob FROM videos WHERE video_no = ?',
      data.videoNo,
    );
    expect(row).toMatchObject({ size: SIZE, sha256: sent.digest('hex') });
    expect((await cluster.s3.keys()).filter((k) => k.endsWith(row!.blob))).toHaveLength(1);
    // Streamed into the store as it arrived: by the client's last byte, all but what is in flight and in the socket
    // buffers (under 128 MiB of the 3 GiB; receiving first and storing after, none of it) had reached the store.
    // What is left after it is the probe of the staged copy, answered with 102 Processing meanwhile.
    expect(storedByLastByte).toBeGreaterThan(SIZE - 128 * MIB);
    // The PUT's buffers and what the GC has not yet returned: not the 3 GiB.
    expect(peak - idle).toBeLessThan(200);
  },
  240_000,
);
