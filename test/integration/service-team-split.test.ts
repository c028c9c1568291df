import { spawn, type ChildProcess } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { FormData } from 'undici';
import { datalakeClient, waitForOperation, type Operation } from '../helpers/datalake';
import { makeHls, startLiveHls } from '../helpers/live-hls';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../helpers/postgres';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { cliSync, SERVICE_CLI, spawnServe } from '../helpers/service';
import { tempDir } from '../helpers/temp';

/** A worker process (`serve --role worker`), resolved once it printed "worker ready". */
async function startWorker(dataDir: string, configFile: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [SERVICE_CLI, 'serve', '--data', dataDir, '--config', configFile, '--role', 'worker'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REELSYNC_LOG: process.env.REELSYNC_LOG ?? 'warn', ...env },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-5000)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('worker ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
  });
  return child;
}

const exited = (c: ChildProcess) =>
  new Promise<number | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once('exit', r)));

/**
 * One api replica and one worker, each with its own data folder, on one PostgreSQL and one S3 server: a stop the api
 * records reaches the worker through the database; an interface B upload the api receives reaches the worker through
 * the blob store. (Uploads and searches across replicas and workers:
 * team-scale-out.test.ts.)
 */
describe.skipIf(skipPostgresTests)('an api replica and a worker process on PostgreSQL + S3', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let pg: TestPostgres;
  let s3: TestS3Server;
  let api: { child: ChildProcess; origin: string };
  let worker: ChildProcess;
  let lakeKey: string;

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-split-'));
    [pg, s3] = await Promise.all([startPostgres(), startS3Server()]);
    const configFile = join(dir, 'config.json');
    const config = { database: { url: await pg.createDatabase() }, storage: { s3: s3.config }, jobs: { pollMs: 200 } };
    await writeFile(configFile, JSON.stringify(config));
    const key = (kind: string) =>
      cliSync(['key', 'create', '--config', configFile, '--account', 'team', '--interface', kind, '--credits', '50']);
    lakeKey = key('datalake');
    api = await spawnServe(join(dir, 'api'), 0, configFile, undefined, s3.env, ['--role', 'api']);
    worker = await startWorker(join(dir, 'worker'), configFile, s3.env);
  }, 120_000);

  afterAll(async () => {
    for (const child of [api?.child, worker]) {
      if (!child) continue;
      child.kill('SIGTERM');
      await exited(child);
    }
    await s3?.stop();
    await pg?.stop();
    await cleanup?.();
  });

  it('interface B uploads to the api (multipart, resumable) are indexed by the worker, their staged blobs gone after', async () => {
    const dl = datalakeClient(api.origin, lakeKey);
    const collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'uploads' })).json
      .collection_id;
    const file = fixturePath('phoneH264Mp4');
    const form = new FormData();
    form.append('json', JSON.stringify({ collection_id: collection }));
    form.append('file', await openAsBlob(file, { type: 'video/mp4' }), 'phone.mp4');
    const multipart = await dl.call<Operation>('POST', '/videos', form);
    expect(multipart.status).toBe(202);
    const bytes = await readFile(file);
    const session = await dl.post<{ video_id: string; upload_url: string }>('/videos?upload=resumable', {
      collection_id: collection,
      size: bytes.length,
      filename: 'phone.mp4',
      content_type: 'video/mp4',
    });
    const put = await dl.call('PUT', session.json.upload_url, bytes, {
      'content-type': 'application/octet-stream',
      'content-range': `bytes 0-${bytes.length - 1}/${bytes.length}`,
    });
    expect(put.status).toBe(200);
    const finalized = await dl.post<Operation>(`/videos/${session.json.video_id}:finalize`);
    expect(finalized.status).toBe(202);
    for (const [id, type] of [
      [multipart.json.operation, 'file'],
      [finalized.json.operation, 'resumable'],
    ] as const) {
      const op = await waitForOperation(dl, id, 120_000);
      expect(op.error).toBeNull();
      expect(op.progress).toMatchObject({ preprocess: 'done', index: 'done' });
      expect((await dl.get(`/videos/${op.resource}`)).json).toMatchObject({ status: 'ready', source: { type } });
      expect((await s3.keys()).filter((k) => k.includes(`/videos/${op.resource}/`))).toHaveLength(1); // the original
    }
    expect((await s3.keys()).filter((k) => k.includes('/datalake-uploads/'))).toEqual([]);
    // Nothing waits on the api's disk (the worker never saw that folder).
    expect(await readdir(join(dir, 'api', 'datalake-uploads'))).toEqual([]);
  }, 180_000);

  it("a stream stopped through the api stops the worker's pull (the row says so, not an in-process abort)", async () => {
    const { dir: hlsDir, cleanup: hlsCleanup } = await tempDir('reelsync-split-hls-');
    const live = await startLiveHls(hlsDir, await makeHls(fixturePath('phoneH264Mp4'), hlsDir), 1000, Infinity);
    try {
      const dl = datalakeClient(api.origin, lakeKey);
      const collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'live' })).json
        .collection_id;
      const opened = await dl.post<{ stream_id: string }>('/streams', {
        collection_id: collection,
        source_url: `${live.url}/live.m3u8`,
        fps: 1,
        segment_seconds: 2,
      });
      expect(opened.status).toBe(201);
      await expect.poll(() => live.playlistRequests(), { timeout: 30_000, interval: 100 }).toBeGreaterThan(1);
      const stopped = await dl.del<{ status: string }>(`/streams/${opened.json.stream_id}`);
      expect(stopped.json.status).toBe('stopped');
      // The worker reads the row every 2 s; then ffmpeg is gone and asks for the playlist no more.
      await new Promise((r) => setTimeout(r, 4_000));
      const after = live.playlistRequests();
      await new Promise((r) => setTimeout(r, 3_000));
      expect(live.playlistRequests()).toBe(after);
    } finally {
      await live.close();
      await hlsCleanup();
    }
  }, 60_000);
});
