import { createServer, type IncomingMessage, type Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { createLogger } from '../log';
import { LibraryClient } from './client';
import { LibraryApiError, classify, parseRetryAfter } from './errors';

type Reply = { status: number; headers?: Record<string, string>; body: string };
let server: Server;
let base: string;
let replies: Reply[];
let seen: { headers: IncomingMessage['headers']; body: Buffer }[];
let dir: string;
let cleanup: () => Promise<void>;

const envelope = (code: string, data: unknown, msg = 'success') =>
  JSON.stringify({ code, msg, data, success: code === '0000', failed: code !== '0000' });

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  replies = [];
  seen = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks) });
      const r = replies.shift() ?? { status: 500, body: 'no reply queued' };
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(r.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/serve/api/v1`;
});
afterEach(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await cleanup();
});

const client = () => new LibraryClient({ baseUrl: base, key: 'k-123', logger: createLogger('test') });

async function failure(p: Promise<unknown>): Promise<LibraryApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof LibraryApiError)) throw new Error(`expected an LibraryApiError, got ${String(err)}`);
  return err;
}

describe('LibraryClient', () => {
  it('streams a multipart upload with the raw key, fields before the file, and progress up to the full size', async () => {
    const file = join(dir, 'a.mp4');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 7);
    await writeFile(file, bytes);
    replies.push({
      status: 200,
      body: envelope('0000', { videoNo: 'V1', videoName: 'a', videoStatus: 'UNPARSE', uploadTime: '1' }),
    });
    const progress: number[] = [];
    const c = client();
    const video = await c.upload(
      file,
      bytes.length,
      { folder_id: 3, tags: ['x', 'sha256:ab'], datetime_taken: '2024-05-17 14:32:10' },
      { onProgress: (p) => progress.push(p.bytes) },
    );
    await c.close();
    expect(video.videoNo).toBe('V1');
    expect(seen[0]?.headers.authorization).toBe('k-123');
    expect(Number(seen[0]?.headers['content-length'])).toBe(seen[0]?.body.length);
    const text = seen[0]?.body.toString('latin1') ?? '';
    expect(text.indexOf('name="tags[1]"')).toBeLessThan(text.indexOf('name="file"'));
    expect(text).toContain('Content-Type: video/mp4');
    expect(text).toContain('2024-05-17 14:32:10');
    expect(progress.at(-1)).toBe(bytes.length);
  });

  it('maps 429 + Retry-After, 402, 401, 400 and 5xx to rate-limited, paused-fatal, fatal and retry', async () => {
    const c = client();
    replies.push({
      status: 429,
      headers: { 'retry-after': '7' },
      body: envelope('0429', null, 'Request has exceeded the limit.'),
    });
    let e = await failure(c.getMetadata('V1'));
    expect([e.disposition, e.details.retryAfterMs]).toEqual(['rate-limited', 7000]);
    replies.push({ status: 402, body: envelope('0402', null, 'Insufficient balance') });
    e = await failure(c.getMetadata('V1'));
    expect([e.disposition, e.reason]).toEqual(['fatal', 'insufficient-balance']);
    replies.push({ status: 401, body: envelope('0401', null, 'bad key') });
    expect((await failure(c.getMetadata('V1'))).reason).toBe('unauthorized');
    replies.push({ status: 400, body: envelope('0001', null, 'invalid datetime_taken') });
    e = await failure(c.getMetadata('V1'));
    expect([e.disposition, e.message]).toEqual(['fatal', 'invalid datetime_taken']);
    replies.push({ status: 503, body: '<html>down</html>' });
    expect((await failure(c.getMetadata('V1'))).disposition).toBe('retry');
    replies.push({ status: 302, headers: { location: 'http://elsewhere.example/' }, body: '' });
    expect((await failure(c.getMetadata('V1'))).reason).toBe('protocol');
    expect(seen).toHaveLength(6); // the redirect was not followed
    await c.close();
  });

  it('turns a refused connection into a retry', async () => {
    const c = new LibraryClient({ baseUrl: 'http://127.0.0.1:9/serve/api/v1', key: 'k', logger: createLogger('test') });
    const e = await failure(c.getMetadata('V1'));
    expect([e.disposition, e.reason]).toEqual(['retry', 'network']);
    await c.close();
  });

  it('returns null metadata for an unknown video', async () => {
    replies.push({ status: 200, body: envelope('0000', null) });
    const c = client();
    expect(await c.getMetadata('nope')).toBeNull();
    await c.close();
  });
});

describe('errors', () => {
  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
  it('lets the envelope code win over a 200', () => {
    expect(classify(200, '0429', undefined, 'x').disposition).toBe('rate-limited');
  });
});
