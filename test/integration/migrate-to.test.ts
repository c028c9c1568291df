import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import type { UploadedVideo } from '../../src/shared/api-types';
import { fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus } from '../helpers/api';
import { datalakeClient } from '../helpers/datalake';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../helpers/postgres';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { count, envWith, migrateArgs, query, runMigrate, stopKeepingData } from '../helpers/migrate-cli';
import { startService, type TestService } from '../helpers/service';

/** Ledger rows added to the library so a copy takes long enough to be killed in the middle of a table. */
const EXTRA_LEDGER_ROWS = 20_000;

describe.skipIf(skipPostgresTests)('migrate-to: an embedded library onto PostgreSQL and S3', () => {
  let service: TestService;
  let postgres: TestPostgres;
  let s3: TestS3Server;
  let videoNo: string;
  let sourceCounts: Record<string, number>;
  const sqlite = (): Database.Database => new Database(join(service.dataDir, 'service.db'), { readonly: true });

  beforeAll(async () => {
    [service, postgres, s3] = await Promise.all([startService(), startPostgres(), startS3Server('reelsync-team')]);
    const api = apiClient(service.baseUrl, service.key);
    const uploaded = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'));
    expect(uploaded.status).toBe(200);
    videoNo = uploaded.json.data?.videoNo ?? '';
    expect(await waitForStatus(api, videoNo, 120_000)).toMatchObject({ status: 'PARSE' });
    const dl = datalakeClient(service.origin, service.createKey('studio', { kind: 'datalake', credits: 5 }));
    expect(
      (await dl.post('/collections', { name: 'dailies', safety_detector: true, face_recognition: false })).status,
    ).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([service?.stop(), postgres?.stop(), s3?.stop()]);
  });

  it('refuses a library its service has open, naming the reason', async () => {
    const run = await runMigrate(migrateArgs(service.dataDir, await postgres.createDatabase(), s3), envWith(s3.env));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/open in another process .*stop it/);
    await stopKeepingData(service);
    // A long-used library: many ledger rows (the copy of this table is what the kill test interrupts).
    const db = new Database(join(service.dataDir, 'service.db'));
    const insert = db.prepare(
      "INSERT INTO ledger (account_id, amount_micro, reason, ref, created_at) VALUES (1, -1, 'test', ?, ?)",
    );
    db.transaction(() => {
      for (let i = 0; i < EXTRA_LEDGER_ROWS; i++) insert.run(`r${i}`, 1_700_000_000_000 + i);
    })();
    db.close();
    const read = sqlite();
    const names = read
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'segments_%'",
      )
      .all() as { name: string }[];
    sourceCounts = Object.fromEntries(
      names.map(({ name }) => [name, (read.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n]),
    );
    read.close();
    expect(sourceCounts.segments).toBeGreaterThan(0);
    expect(sourceCounts.dl_collections).toBe(1);
  });

  it('copies, verifies, a second run adds nothing, and a changed row or a swapped original fails the verification', async () => {
    const url = await postgres.createDatabase();
    const first = await runMigrate(migrateArgs(service.dataDir, url, s3), envWith(s3.env));
    expect(first.stderr).not.toContain('reelsync-service:');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/verified: \d+ tables and \d+ blobs equal/);
    const fts = sqlite();
    const searchable = (fts.prepare('SELECT COUNT(*) AS n FROM segments_fts_1').get() as { n: number }).n;
    fts.close();
    expect(searchable).toBeGreaterThan(0);
    expect(first.stdout).toContain(`search index: ${searchable} segments indexed on PostgreSQL, rebuilt from`);
    expect(await count(url, 'segment_search')).toBe(searchable);
    expect(first.stdout).toMatch(/blobs: \d+\/\d+, [\d.]+ MB of [\d.]+ MB \(100%\)/);
    for (const [table, n] of Object.entries(sourceCounts))
      expect({ table, n: await count(url, table) }).toEqual({ table, n });
    const keys = await s3.keys();
    const [video] = await query<{ bucket: string; blob: string; poster_blob: string }>(
      url,
      'SELECT bucket, blob, poster_blob FROM videos',
    );
    expect(keys).toContain(`${video?.bucket}/${video?.blob}`);
    expect(keys).toContain(`${video?.bucket}/${video?.poster_blob}`);
    expect(keys.filter((k) => k.includes('keyframe')).length).toBeGreaterThan(0);
    // New rows on the team server take ids past the copied ones.
    const [seq] = await query<{ next: string; max: string }>(
      url,
      "SELECT nextval(pg_get_serial_sequence('ledger', 'id')) AS next, (SELECT MAX(id) FROM ledger) AS max",
    );
    expect(Number(seq?.next)).toBeGreaterThan(Number(seq?.max));

    const again = await runMigrate(migrateArgs(service.dataDir, url, s3), envWith(s3.env));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/ledger: \d+ rows, 0 new/);
    expect(again.stdout).not.toMatch(/ [1-9]\d* new/);
    expect(again.stdout).toMatch(/blobs: 0 uploaded, \d+ already there/);
    expect(await count(url, 'ledger')).toBe(sourceCounts.ledger);
    expect(await count(url, 'segment_search')).toBe(searchable);
    expect(await s3.keys()).toEqual(keys);

    // A target row changed behind the copy's back: the verification names its table and fails the run.
    await query(url, "UPDATE videos SET video_name = 'tampered'");
    const tampered = await runMigrate(migrateArgs(service.dataDir, url, s3), envWith(s3.env));
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/verification failed:\n {2}table videos: same 1 rows but their checksums differ/);
    expect(tampered.stderr).not.toMatch(/table (?!videos)/);
    expect(tampered.stderr).toContain('rows copied by an earlier run are never updated: if the library changed since');

    // An original of the right size but other bytes is skipped by the copy (sizes match) and caught by its SHA-256.
    const originalKey = `${video?.bucket}/${video?.blob}`;
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY ?? '' },
    });
    const [row] = await query<{ size: string }>(url, 'SELECT size FROM videos');
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: originalKey, Body: Buffer.alloc(Number(row?.size), 7) }),
    );
    client.destroy();
    const swapped = await runMigrate(migrateArgs(service.dataDir, url, s3), envWith(s3.env));
    expect(swapped.code).toBe(1);
    expect(swapped.stderr).toContain(`original ${originalKey}: SHA-256 `);
  }, 180_000);

  it('a run SIGKILLed in the middle of a table, run again, ends whole and without duplicates', async () => {
    const url = await postgres.createDatabase();
    const bucket = await startS3Server('reelsync-resume');
    try {
      const args = migrateArgs(service.dataDir, url, bucket);
      const killed = await runMigrate(args, envWith(bucket.env), /ledger: \d+\/\d+ rows/);
      expect(killed.killed).toBe(true);
      const partial = await count(url, 'ledger');
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(sourceCounts.ledger ?? 0);
      expect(await bucket.keys()).toEqual([]);
      const resumed = await runMigrate(args, envWith(bucket.env));
      expect(resumed.stderr).not.toContain('reelsync-service:');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(
        `ledger: ${sourceCounts.ledger} rows, ${(sourceCounts.ledger ?? 0) - partial} new`,
      );
      for (const [table, n] of Object.entries(sourceCounts))
        expect({ table, n: await count(url, table) }).toEqual({ table, n });
    } finally {
      await bucket.stop();
    }
  }, 180_000);

  it("refuses a database holding another library's accounts, and writes nothing", async () => {
    const other = await postgres.createDatabase();
    await (await openPgSql(other)).close();
    await query(
      other,
      "INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (1, 'elsewhere', 'whsec_x', 1)",
    );
    const run = await runMigrate(migrateArgs(service.dataDir, other, s3), envWith(s3.env));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/already holds another library \(its account "elsewhere" is not this library's\)/);
    expect(await count(other, 'videos')).toBe(0);
  }, 120_000);

  it('refuses bad URLs without echoing the password, and missing S3 credentials', async () => {
    const secret = 'pw-never-printed';
    const wrongScheme = await runMigrate(
      migrateArgs(service.dataDir, `mysql://u:${secret}@127.0.0.1/x`, s3),
      envWith(s3.env),
    );
    expect(wrongScheme.code).toBe(2);
    expect(wrongScheme.stderr).toMatch(/--database: expected postgres:\/\//);
    const unreachable = await runMigrate(
      migrateArgs(service.dataDir, `postgres://u:${secret}@127.0.0.1:1/x`, s3),
      envWith(s3.env),
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/cannot connect to PostgreSQL at 127\.0\.0\.1:1/);
    for (const run of [wrongScheme, unreachable]) expect(run.stdout + run.stderr).not.toContain(secret);
    const noCredentials = await runMigrate(
      migrateArgs(service.dataDir, await postgres.createDatabase(), s3),
      envWith({}),
    );
    expect(noCredentials.code).toBe(2);
    expect(noCredentials.stderr).toMatch(/AWS_ACCESS_KEY_ID/);
  }, 60_000);
});
