import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBlobBackends } from '../../../test/helpers/blob-backends';
import { SERVICE_CLI } from '../../../test/helpers/service';
import { ConfigError, parseConfig } from '../config';
import type { BlobStore } from './blob-store';
import { openBlobStore } from './open-blob-store';

const BUCKET = 'reelsync-7';
const stores = useBlobBackends();

/** `serve` with storage.s3 = s3Config and the given AWS variables (none inherited); its exit code and stderr. */
async function serve(
  s3Config: object,
  aws: Record<string, string>,
): Promise<{ status: number | null; stderr: string }> {
  const config = join(stores.dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(config, JSON.stringify({ storage: { s3: s3Config } }));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_')));
  const res = spawnSync(
    process.execPath,
    [SERVICE_CLI, 'serve', '--data', join(stores.dir, 'data'), '--port', '0', '--config', config],
    { encoding: 'utf8', env: { ...env, ...aws }, timeout: 60_000 },
  );
  return { status: res.status, stderr: res.stderr };
}

describe.each(stores.backends)('blob store on $name', ({ open }) => {
  let store: BlobStore;
  let dir: string;
  let n = 0;
  const file = async (body: string | Buffer): Promise<string> => {
    const path = join(dir, `in-${n++}.bin`);
    await writeFile(path, body);
    return path;
  };

  beforeAll(async () => {
    dir = join(stores.dir, `store-${Math.random().toString(36).slice(2)}`);
    await mkdir(dir);
    store = await open(dir);
    await store.check();
  });

  it('adopts a finished file (moving it away), sizes it and streams it whole or by range', async () => {
    const source = await file('0123456789abcdef');
    await store.adopt(BUCKET, 'videos/VI1/clip.mp4', source);
    expect(existsSync(source)).toBe(false);
    expect(await store.size(BUCKET, 'videos/VI1/clip.mp4')).toBe(16);
    expect(await text(store.read(BUCKET, 'videos/VI1/clip.mp4'))).toBe('0123456789abcdef');
    expect(await text(store.read(BUCKET, 'videos/VI1/clip.mp4', { start: 3, end: 6 }))).toBe('3456');
    expect(await text(store.read(BUCKET, 'videos/VI1/clip.mp4', { start: 15, end: 15 }))).toBe('f');
  });

  // The length foreseen: none (S3: parts as they fill), exact (S3: one streamed PUT), or wrong either way (the request
  // was not as foreseen: S3 stores the staged copy instead). Every way stores the same bytes.
  const SIZE = 20 * 1024 * 1024; // three 8 MiB parts on S3
  it.each([
    ['unknown', null],
    ['foreseen', SIZE],
    ['foreseen too long', SIZE + 5],
    ['foreseen too short', SIZE - 5],
  ])(
    'receives an upload as it arrives (length %s), then finishes it or aborts it leaving nothing',
    async (_, expected) => {
      const body = Buffer.alloc(SIZE);
      for (let i = 0; i < body.length; i += 4096) body.writeUInt32BE(i, i);
      const id = `${n++}`;
      const receive = async (
        blob: string,
      ): Promise<{ staged: string; finish: () => Promise<void>; abort: () => Promise<void> }> => {
        const staged = await file(body);
        const receiver = store.receive(BUCKET, blob.replace('/VI', `/VI${id}`), expected);
        if (receiver.copy) await pipeline(Readable.from([body.subarray(0, 9e6), body.subarray(9e6)]), receiver.copy);
        return { staged, finish: () => receiver.finish(staged), abort: () => receiver.abort() };
      };
      const at = (blob: string): string => blob.replace('/VI', `/VI${id}`);
      const kept = await receive('videos/VI8/kept.mp4');
      await kept.finish();
      expect(existsSync(kept.staged)).toBe(false);
      expect(
        createHash('sha256')
          .update(await buffer(store.read(BUCKET, at('videos/VI8/kept.mp4'))))
          .digest('hex'),
      ).toBe(createHash('sha256').update(body).digest('hex'));
      const refused = await receive('videos/VI9/refused.mp4');
      await refused.abort();
      await refused.abort(); // a second abort (the route's, after the ingest's) is harmless
      expect(await store.size(BUCKET, at('videos/VI9/refused.mp4'))).toBeNull();
      const late = await receive('videos/VI10/late.mp4');
      await late.finish();
      await late.abort(); // refused after it was stored (the row could not be written): deleted
      expect(await store.size(BUCKET, at('videos/VI10/late.mp4'))).toBeNull();
    },
  );

  it('writes a stream larger than one multipart part and reads back the same bytes', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const chunks = 20; // 20 MiB: three 8 MiB parts on S3
    const expected = createHash('sha256');
    for (let i = 0; i < chunks; i++) expected.update(chunk.fill(i, 0, 1));
    await store.writeFrom(
      BUCKET,
      'videos/VI2/big.mp4',
      Readable.from(
        (function* () {
          for (let i = 0; i < chunks; i++) yield Buffer.from(chunk.fill(i, 0, 1));
        })(),
      ),
    );
    expect(await store.size(BUCKET, 'videos/VI2/big.mp4')).toBe(chunks * chunk.length);
    const got = createHash('sha256');
    for await (const c of store.read(BUCKET, 'videos/VI2/big.mp4')) got.update(c as Buffer);
    expect(got.digest('hex')).toBe(expected.digest('hex'));
  });

  it('answers null for a missing blob and errors the stream of one', async () => {
    expect(await store.size(BUCKET, 'videos/VI404/none.mp4')).toBeNull();
    expect(await store.localFile(BUCKET, 'videos/VI404/none.mp4')).toBeNull();
    await expect(text(store.read(BUCKET, 'videos/VI404/none.mp4'))).rejects.toThrow();
  });

  it('refuses addresses that are invalid or leave their bucket', async () => {
    for (const [bucket, blob] of [
      ['reelsync-7', '../reelsync-8/videos/x.mp4'],
      ['reelsync-7', 'videos/../../x'],
      ['reelsync-7', '/etc/passwd'],
      ['reelsync-7', 'videos//x'],
      ['Upper', 'videos/x'],
      ['reelsync-7/..', 'videos/x'],
    ] as const) {
      expect(await store.size(bucket, blob)).toBeNull();
      expect(await store.localFile(bucket, blob)).toBeNull();
      expect(() => store.read(bucket, blob)).toThrow(/invalid blob address/);
      await expect(store.adopt(bucket, blob, await file('x'))).rejects.toThrow(/invalid blob address/);
    }
  });

  it('deletes one blob, and a prefix folder without touching a sibling that shares its first letters', async () => {
    for (const blob of ['keyframes/VI3/0.jpg', 'keyframes/VI3/1.jpg', 'keyframes/VI30/0.jpg', 'posters/VI3/p.jpg'])
      await store.adopt(BUCKET, blob, await file(blob));
    await store.deletePrefix(BUCKET, 'keyframes/VI3');
    expect(await store.size(BUCKET, 'keyframes/VI3/0.jpg')).toBeNull();
    expect(await store.size(BUCKET, 'keyframes/VI3/1.jpg')).toBeNull();
    expect(await store.size(BUCKET, 'keyframes/VI30/0.jpg')).toBe('keyframes/VI30/0.jpg'.length);
    await store.delete(BUCKET, 'posters/VI3/p.jpg');
    expect(await store.size(BUCKET, 'posters/VI3/p.jpg')).toBeNull();
    await store.delete(BUCKET, 'posters/VI3/p.jpg'); // gone already: no error
  });

  it('lists the blobs under a prefix folder, with when each was stored, and nothing for a missing folder', async () => {
    const before = Date.now() - 5_000; // s3rver's LastModified has whole seconds
    for (const blob of ['staged/VI5.bin', 'staged/deep/VI6.bin', 'staged2/VI7.bin'])
      await store.adopt(BUCKET, blob, await file(blob));
    const listed = [];
    for await (const entry of store.list(BUCKET, 'staged')) listed.push(entry);
    expect(listed.map((e) => e.blob).sort()).toEqual(['staged/VI5.bin', 'staged/deep/VI6.bin']);
    for (const { modifiedMs } of listed) expect(modifiedMs).toBeGreaterThan(before);
    for await (const entry of store.list(BUCKET, 'nothing-here')) expect.fail(`listed ${entry.blob}`);
  });

  it('gives the media tools a local file, and release removes any copy it made', async () => {
    await store.adopt(BUCKET, 'videos/VI4/take 1.mov', await file('moov'));
    const local = await store.localFile(BUCKET, 'videos/VI4/take 1.mov');
    expect(local).not.toBeNull();
    expect(local!.path.endsWith('take 1.mov')).toBe(true);
    expect(await readFile(local!.path, 'utf8')).toBe('moov');
    await local!.release();
    expect(await store.size(BUCKET, 'videos/VI4/take 1.mov')).toBe(4);
    if (store.kind === 's3') expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });
});

describe('S3 configuration', () => {
  it('keys objects as <service bucket>/<blob> in the configured bucket', async () => {
    expect(await stores.s3.keys(`${BUCKET}/videos/VI1/`)).toEqual([`${BUCKET}/videos/VI1/clip.mp4`]);
  });

  it('names the missing credentials', async () => {
    const config = parseConfig({ storage: { s3: stores.s3.config } });
    await expect(openBlobStore(config, stores.dir, stores.dir, { AWS_ACCESS_KEY_ID: 'x' })).rejects.toThrow(
      ConfigError,
    );
    await expect(openBlobStore(config, stores.dir, stores.dir, { AWS_ACCESS_KEY_ID: 'x' })).rejects.toThrow(
      /storage.s3 needs S3 credentials in the environment: AWS_SECRET_ACCESS_KEY missing/,
    );
  });

  it('refuses a bucket that does not exist, and credentials the server does not know, with the cause', async () => {
    const missing = await openBlobStore(
      parseConfig({ storage: { s3: { ...stores.s3.config, bucket: 'no-such-bucket' } } }),
      stores.dir,
      stores.dir,
      stores.s3.env,
    );
    await expect(missing.check()).rejects.toThrow(/storage.s3: cannot use bucket "no-such-bucket" at http:.*404/);
    const stranger = await openBlobStore(parseConfig({ storage: { s3: stores.s3.config } }), stores.dir, stores.dir, {
      AWS_ACCESS_KEY_ID: 'someone',
      AWS_SECRET_ACCESS_KEY: 'else',
    });
    await expect(stranger.check()).rejects.toThrow(/storage.s3: cannot use bucket "reelsync-test".*40[13]/);
  });

  it('validates storage.s3 in the config file with the key named', () => {
    expect(() => parseConfig({ storage: { s3: { bucket: 'x' } } })).toThrow(/storage.s3.bucket/);
    expect(() => parseConfig({ storage: { s3: { bucket: 'media', endpoint: 'ftp://host' } } })).toThrow(
      /storage.s3.endpoint: must be an http or https URL/,
    );
    expect(() => parseConfig({ storage: { s3: { bucket: 'media', secret: 'k' } } })).toThrow(/storage.s3.*secret/);
    expect(() => parseConfig({ storage: { s3: {} } })).toThrow(/storage.s3.bucket: is required/);
    expect(parseConfig({ storage: { s3: { bucket: 'media' } } }).storage.s3).toEqual({
      bucket: 'media',
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(parseConfig({}).storage.s3).toBeUndefined();
  });

  it('refuses to start without S3 credentials in the environment, naming them (exit 2)', async () => {
    const res = await serve(stores.s3.config, {});
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(
      /storage.s3 needs S3 credentials in the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY missing/,
    );
  });

  it('refuses to start on a bucket that does not exist or credentials the server refuses (exit 1)', async () => {
    const missing = await serve({ ...stores.s3.config, bucket: 'not-there' }, stores.s3.env);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/storage.s3: cannot use bucket "not-there" at http:\/\/127\.0\.0\.1:\d+: .*404/);
    const refused = await serve(stores.s3.config, { AWS_ACCESS_KEY_ID: 'nobody', AWS_SECRET_ACCESS_KEY: 'wrong' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/storage.s3: cannot use bucket "reelsync-test"/);
  });

  it('names the offending storage key of the config file (exit 2)', async () => {
    const res = await serve({ bucket: 'media', endpoint: 'minio:9000' }, stores.s3.env);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/invalid config key storage.s3.endpoint: must be an http or https URL/);
  });
});
