import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, openAsBlob } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DRAWN_TEXT, fixturePath, type FixtureName } from '../fixtures/media';
import {
  datalakeClient,
  putChunk,
  startMediaServer,
  waitForOperation,
  type MediaServer,
  type Operation,
  type ResumableSession as Session,
} from '../helpers/datalake';
import { envWith, migrateArgs, query, runMigrate, stopKeepingData } from '../helpers/migrate-cli';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../helpers/postgres';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { spawnServe, startService, type TestService } from '../helpers/service';
import { tempDir } from '../helpers/temp';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * An embedded library whose interface B uploads are finished but still wait for their ingest (both ingest lanes are
 * held by two url ingests of a source that never ends, then the service stops), plus a resumable session half sent:
 * migrated to PostgreSQL and S3, the team server ingests the waiting uploads with the bytes the client sent.
 */
describe.skipIf(skipPostgresTests)('migrate-to: uploads waiting for their ingest, sessions in progress', () => {
  let service: TestService;
  let postgres: TestPostgres;
  let s3: TestS3Server;
  let media: MediaServer;
  let key: string;
  let bucket: string;
  let databaseUrl: string;
  /** Ingest operation id -> fixture, for the uploads that waited (file part, resumable, received before staging). */
  const waiting = new Map<string, FixtureName>();
  /** The url ingest whose preprocess ran (its original stored) but not its index: the indexer is paused. */
  let preprocessed: string;
  let slow: string[];
  let session: { id: string; sent: number; file: Buffer };
  /** The team server, started once the library is migrated. */
  let team: { origin: string; stop: () => Promise<void> } | undefined;

  const sqlite = (): Database.Database => new Database(join(service.dataDir, 'service.db'), { readonly: true });
  const form = async (json: unknown, fixture: FixtureName, type: string): Promise<FormData> => {
    const f = new FormData();
    f.append('json', JSON.stringify(json));
    f.append('file', await openAsBlob(fixturePath(fixture), { type }), fixturePath(fixture).split('/').pop());
    return f;
  };

  beforeAll(async () => {
    [service, postgres, s3, media] = await Promise.all([
      startService({ config: { indexer: { paused: true }, limits: { concurrentIngests: 10 } } }),
      startPostgres(),
      startS3Server('reelsync-pending'),
      startMediaServer(),
    ]);
    key = service.createKey('studio', { kind: 'datalake', credits: 20 });
    const dl = datalakeClient(service.origin, key);
    const created = await dl.post<{ collection_id: string }>('/collections', {
      name: 'dailies',
      safety_detector: false,
      face_recognition: false,
    });
    expect(created.status).toBe(201);
    const collection = created.json.collection_id;

    const url = await dl.post<Operation>('/videos', {
      collection_id: collection,
      source_url: `${media.url}/media/${fixturePath('hevcMov').split('/').pop()}`,
    });
    expect(url.status).toBe(202);
    preprocessed = url.json.operation;
    await waitForOperation(dl, preprocessed, 60_000, (op) => op.progress.preprocess === 'done');
    // Both ingest lanes held: what is uploaded now is staged and queued, and waits.
    slow = [];
    for (let i = 0; i < 2; i++) {
      const held = await dl.post<Operation>('/videos', {
        collection_id: collection,
        source_url: `${media.url}/slow.mp4`,
      });
      expect(held.status).toBe(202);
      slow.push(held.json.operation);
    }
    for (const op of slow) await waitForOperation(dl, op, 30_000, (o) => o.progress.preprocess === 'running');

    const multipart = await dl.call<Operation>(
      'POST',
      '/videos',
      await form({ collection_id: collection }, 'drawnTextMp4', 'video/mp4'),
    );
    expect(multipart.status).toBe(202);
    waiting.set(multipart.json.operation, 'drawnTextMp4');
    for (const fixture of ['vp9Mkv', 'hevcMov'] as const) {
      const file = await readFile(fixturePath(fixture));
      const opened = await dl.post<Session>('/videos?upload=resumable', {
        collection_id: collection,
        size: file.length,
        filename: fixturePath(fixture).split('/').pop(),
      });
      expect(opened.status).toBe(201);
      expect((await putChunk(dl, `/uploads/${opened.json.video_id}`, file, 0, file.length)).json.complete).toBe(true);
      const finalized = await dl.post<Operation>(`/videos/${opened.json.video_id}:finalize`);
      expect(finalized.status).toBe(202);
      waiting.set(finalized.json.operation, fixture);
    }
    // A session still receiving bytes: half of its file sent.
    const file = await readFile(fixturePath('phoneH264Mp4'));
    const opened = await dl.post<Session>('/videos?upload=resumable', {
      collection_id: collection,
      size: file.length,
      filename: 'phone.mp4',
    });
    const sent = Math.floor(file.length / 2);
    expect(
      (await putChunk(dl, `/uploads/${opened.json.video_id}`, file.subarray(0, sent), 0, file.length)).json.offset,
    ).toBe(sent);
    session = { id: opened.json.video_id, sent, file };

    for (const op of waiting.keys()) {
      expect((await dl.get<Operation>(`/operations/${op}`)).json).toMatchObject({
        done: false,
        progress: { preprocess: 'pending' },
      });
    }
    await stopKeepingData(service);
    await media.close(); // on the team server the two url ingests fail at once instead of holding its lanes
  }, 240_000);

  afterAll(async () => {
    await team?.stop();
    await Promise.all([service?.stop(), postgres?.stop(), s3?.stop(), media?.close()]);
  });

  it('copies the waiting uploads as staged blobs, verified, names the open session, and adds nothing when run again', async () => {
    const db = sqlite();
    const rows = z
      .array(z.object({ id: z.string(), account_id: z.number() }))
      .parse(
        db
          .prepare(
            "SELECT id, account_id FROM dl_videos WHERE source_type <> 'url' AND status = 'processing' ORDER BY id",
          )
          .all(),
      );
    db.close();
    expect(rows).toHaveLength(3);
    bucket = `reelsync-${rows[0]?.account_id}`;
    const staged = (id: string): string => join(service.dataDir, 'blobs', bucket, 'datalake-uploads', `${id}.bin`);
    for (const { id } of rows) expect(existsSync(staged(id))).toBe(true);
    // A library from before uploads were staged: its waiting upload is still the file the service received.
    const legacy = rows[2]?.id ?? '';
    await rename(staged(legacy), join(service.dataDir, 'datalake-uploads', `${legacy}.bin`));

    databaseUrl = await postgres.createDatabase();
    const url = databaseUrl;
    const run = await runMigrate(migrateArgs(service.dataDir, url, s3), envWith(s3.env));
    expect(run.stderr).not.toContain('reelsync-service:');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'blobs to copy: 1 original, 0 posters, 0 keyframes, 3 uploads staged for their queued ingest',
    );
    expect(run.stdout).toMatch(/warning: 1 resumable upload session\(s\) still receiving bytes: their rows are copied/);
    expect(run.stdout).toContain(`session ${session.id}: ${session.sent} of ${session.file.length} bytes received`);
    expect(run.stdout).toMatch(/blobs: 4\/4, /);
    expect(run.stdout).toMatch(
      /verified: \d+ tables and 4 blobs equal \(3 of them uploads staged for their queued ingest\)/,
    );
    const keys = await s3.keys(`${bucket}/datalake-uploads/`);
    expect(keys).toEqual(rows.map(({ id }) => `${bucket}/datalake-uploads/${id}.bin`));

    const again = await runMigrate(migrateArgs(service.dataDir, url, s3), envWith(s3.env));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('blobs: 0 uploaded, 4 already there');
    expect(again.stdout).toMatch(/verified: \d+ tables and 4 blobs equal/);
    await startTeamServer();
  }, 180_000);

  /** The team server on the migrated database and bucket, in a data folder of its own (another machine). */
  async function startTeamServer(): Promise<void> {
    const { dir, cleanup } = await tempDir('reelsync-team-');
    const dataDir = join(dir, 'data');
    await mkdir(dataDir);
    const configFile = join(dir, 'config.json');
    await writeFile(
      configFile,
      JSON.stringify({
        database: { url: databaseUrl },
        storage: { s3: s3.config },
        limits: { concurrentIngests: 10 },
      }),
    );
    const served = await spawnServe(dataDir, 0, configFile, undefined, s3.env);
    team = {
      origin: served.origin,
      stop: async () => {
        const gone = new Promise((r) => served.child.once('exit', r));
        served.child.kill('SIGTERM');
        await gone;
        await cleanup();
      },
    };
  }

  it('on PostgreSQL and S3, the waiting ingests finish with the bytes the client sent; the open session starts again at 0', async () => {
    if (!team) throw new Error('the migration test did not start the team server');
    const dl = datalakeClient(team.origin, key);
    const resumed = await dl.get<Session>(`/uploads/${session.id}`);
    expect(resumed.json).toMatchObject({ offset: 0, complete: false });
    const whole = await putChunk(dl, `/uploads/${session.id}`, session.file, 0, session.file.length);
    expect(whole.json).toMatchObject({ offset: session.file.length, complete: true });
    const finalized = await dl.post<Operation>(`/videos/${session.id}:finalize`);
    expect(finalized.status).toBe(202);
    waiting.set(finalized.json.operation, 'phoneH264Mp4');

    for (const op of slow) expect((await waitForOperation(dl, op, 60_000)).error).not.toBeNull();
    expect(await waitForOperation(dl, preprocessed, 180_000)).toMatchObject({ done: true, error: null });
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY ?? '' },
    });
    try {
      for (const [opId, fixture] of waiting) {
        const op = await waitForOperation(dl, opId, 180_000);
        expect({ fixture, op }).toMatchObject({ fixture, op: { done: true, error: null } });
        const [row] = await query<{ bucket: string; blob: string }>(
          databaseUrl,
          `SELECT bucket, blob FROM videos WHERE video_no = '${op.resource}'`,
        );
        const object = await client.send(
          new GetObjectCommand({ Bucket: s3.bucket, Key: `${row?.bucket}/${row?.blob}` }),
        );
        const chunks: Buffer[] = [];
        for await (const chunk of object.Body as Readable) chunks.push(chunk as Buffer);
        const stored = Buffer.concat(chunks);
        expect({ fixture, sha256: sha256(stored) }).toEqual({
          fixture,
          sha256: sha256(await readFile(fixturePath(fixture))),
        });
      }
    } finally {
      client.destroy();
    }
    // Indexed on the team server: the title drawn in the multipart upload is found by OCR.
    const drawn = [...waiting].find(([, fixture]) => fixture === 'drawnTextMp4')?.[0] ?? '';
    const found = await dl.post<{ results: { video_id: string }[] }>('/search', {
      query: DRAWN_TEXT.split(' ')[0]?.toLowerCase(),
    });
    expect(found.json.results.map((r) => r.video_id)).toEqual([(await waitForOperation(dl, drawn)).resource]);
    // Stored as originals, the staged uploads are gone from the bucket.
    expect(await s3.keys(`${bucket}/datalake-uploads/`)).toEqual([]);
  }, 600_000);
});
