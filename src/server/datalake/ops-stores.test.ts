import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../../../test/helpers/postgres';
import { tempDir } from '../../../test/helpers/temp';
import { openServiceDb } from '../storage/db';
import { openPgSql } from '../storage/open-pg-sql';
import type { Sql } from '../storage/sql';
import { SqliteSql } from '../storage/sqlite-sql';
import { Deliveries } from './deliveries';
import { Events } from './events';
import { Operations } from './operations';
import { Streams } from './streams';

/**
 * The datalake stores of operations, webhook deliveries, streams and safety events, on both engines. Two connections
 * to one database stand for two worker processes: claims on one must keep the other out.
 */
let server: TestPostgres | undefined;
beforeAll(async () => {
  if (!skipPostgresTests) server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

interface TwoConnections {
  a: Sql;
  b: Sql;
  close: () => Promise<void>;
}

const engines: { name: string; skip: boolean; open: () => Promise<TwoConnections> }[] = [
  {
    name: 'SQLite',
    skip: false,
    open: async () => {
      const t = await tempDir('reelsync-dlops-');
      const first = openServiceDb(t.dir);
      const second = openServiceDb(t.dir);
      return {
        a: new SqliteSql(first),
        b: new SqliteSql(second),
        close: async () => {
          first.close();
          second.close();
          await t.cleanup();
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: skipPostgresTests,
    open: async () => {
      if (!server) throw new Error('PostgreSQL is not running');
      const url = await server.createDatabase();
      const a = await openPgSql(url);
      const b = await openPgSql(url);
      return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  },
];

const idRow = z.object({ id: z.number().int() });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.each(engines)('datalake operation stores on $name', (engine) => {
  let db: TwoConnections;
  let accountId: number;

  beforeEach(async () => {
    if (engine.skip) return;
    db = await engine.open();
    accountId = idRow.parse(
      await db.a.get(
        "INSERT INTO accounts (name, balance_micro, webhook_secret, created_at) VALUES (?, 0, 'whsec_x', ?) RETURNING id",
        'acme',
        Date.now(),
      ),
    ).id;
  });
  afterEach(async () => {
    if (!engine.skip) await db.close();
  });

  describe.skipIf(engine.skip)('operations', () => {
    it('records stages and fractions, ends once, and gives its charge back once', async () => {
      const ops = new Operations(db.a);
      const op = await ops.create({ accountId, kind: 'ingest', resource: 'vid_1', idempotencyKey: 'k1' });
      expect((await ops.byIdempotencyKey(accountId, 'k1'))?.id).toBe(op.id);
      expect(await ops.activeIngests(accountId)).toBe(1);
      await ops.setStage(op.id, 'preprocess', 'running', 0.5);
      await ops.setStage(op.id, 'preprocess', 'done');
      await ops.setFraction(op.id, 'derive', 0.5);
      const running = await ops.byId(op.id);
      if (!running) throw new Error('operation gone');
      expect((await ops.record(running)).progress).toMatchObject({ preprocess: 'done', index: 'pending', percent: 20 });
      await ops.addCharge(op.id, 700);
      const [first, second] = await Promise.all([ops.takeCharge(op.id), new Operations(db.b).takeCharge(op.id)]);
      expect([first, second].sort()).toEqual([0, 700]);
      const ends = await Promise.all([
        ops.finish(op.id, { error: null }),
        new Operations(db.b).finish(op.id, { error: { code: 'internal', message: 'x' } }),
      ]);
      expect(ends.filter(Boolean)).toHaveLength(1);
      expect(await ops.activeIngests(accountId)).toBe(0);
      expect(await ops.unfinished('ingest')).toEqual([]);
    });

    it('lets one of two processes claim an operation; the other gets it only once the claim lapses', async () => {
      const one = new Operations(db.a);
      const two = new Operations(db.b);
      const ops = await Promise.all(
        Array.from({ length: 20 }, (_, i) => one.create({ accountId, kind: 'ingest', resource: `vid_${i}` })),
      );
      // Both race for every operation at once: each must end with exactly one holder.
      const results = await Promise.all(ops.flatMap((op) => [one.claim(op.id, 60_000), two.claim(op.id, 60_000)]));
      for (let i = 0; i < ops.length; i++) {
        const [a, b] = results.slice(i * 2, i * 2 + 2);
        expect(a !== b).toBe(true);
        const op = ops[i];
        if (!op) throw new Error('no operation');
        expect(await (a ? one : two).claim(op.id, 60_000)).toBe(true); // a holder claiming again keeps it
        expect((await one.byId(op.id))?.claimed_by).toBe((a ? one : two).owner);
      }
      const op = ops[0];
      if (!op) throw new Error('no operation');
      const holder = (await one.byId(op.id))?.claimed_by === one.owner ? one : two;
      const other = holder === one ? two : one;
      expect(await other.claim(op.id, 60_000)).toBe(false);
      expect(await other.renewClaim(op.id, 60_000)).toBe(false);
      expect(await holder.renewClaim(op.id, 30)).toBe(true);
      await sleep(60);
      expect(await other.claim(op.id, 60_000)).toBe(true);
      expect(await holder.renewClaim(op.id, 60_000)).toBe(false); // it lost the claim: its stage must stop
      await other.releaseClaim(op.id);
      expect(await holder.claim(op.id, 60_000)).toBe(true);
      expect(await holder.finish(op.id, { error: null })).toBe(true);
      expect(await other.claim(op.id, 60_000)).toBe(false); // an ended operation is nobody's
      expect((await one.byId(op.id))?.claimed_by).toBeNull();
    });

    it('keeps a stage written by another process while writing a fraction (no lost update)', async () => {
      const one = new Operations(db.a);
      const two = new Operations(db.b);
      const op = await one.create({ accountId, kind: 'ingest', resource: 'vid_9' });
      await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => one.setFraction(op.id, 'preprocess', i / 10)),
        two.setStage(op.id, 'index', 'done'),
        two.setStage(op.id, 'derive', 'running'),
      ]);
      const row = await one.byId(op.id);
      if (!row) throw new Error('operation gone');
      expect(one.stages(row)).toMatchObject({ index: 'done', derive: 'running' });
    });
  });

  describe.skipIf(engine.skip)('webhook deliveries', () => {
    it('gives each delivery attempt to exactly one of two racing processes, and fences a lapsed claim', async () => {
      const op = await new Operations(db.a).create({ accountId, kind: 'ingest', resource: 'vid_1' });
      const one = new Deliveries(db.a);
      const two = new Deliveries(db.b);
      const made = await Promise.all(
        Array.from({ length: 30 }, (_, i) => one.create(op.id, accountId, `http://127.0.0.1/${i}`, '{}')),
      );
      const claims = await Promise.all(
        made.flatMap((d) => [one.claimAttempt(d.id, 60_000), two.claimAttempt(d.id, 60_000)]),
      );
      for (let i = 0; i < made.length; i++) {
        const won = claims.slice(i * 2, i * 2 + 2).filter((c) => c !== undefined);
        expect(won).toHaveLength(1);
      }
      const first = made[0];
      if (!first) throw new Error('no delivery');
      const held = await one.byId(first.id);
      const holder = held?.claimed_by === one.owner ? one : two;
      const other = holder === one ? two : one;
      const outcome = { attempt: 1, responseCode: 500, message: 'x', nextAttemptAt: null };
      expect(await other.recordAttempt(first.id, { status: 'fail', ...outcome })).toBe(false);
      // The holder's claim lapses; the other takes the row over, and the first one's late outcome is refused.
      await db.a.run('UPDATE dl_deliveries SET claim_until = ? WHERE id = ?', Date.now() - 1, first.id);
      expect(await other.claimAttempt(first.id, 60_000)).toBeDefined();
      expect(await holder.recordAttempt(first.id, { status: 'fail', ...outcome })).toBe(false);
      expect(await other.recordAttempt(first.id, { status: 'success', ...outcome, responseCode: 200 })).toBe(true);
      const done = await one.byId(first.id);
      expect(done).toMatchObject({ status: 'success', response_code: 200, claimed_by: null });
      expect(await holder.claimAttempt(first.id, 60_000)).toBeUndefined(); // settled: nothing left to send
      expect((await one.forOperation(op.id)).map((d) => d.id).sort()).toEqual(made.map((d) => d.id).sort());
    });
  });

  describe.skipIf(engine.skip)('streams and safety events', () => {
    it('counts segments with the furthest offset, and pages events in media-time order', async () => {
      const streams = new Streams(db.a);
      const events = new Events(db.b);
      const collection = 'col_1';
      const folder = idRow.parse(
        await db.a.get(
          "INSERT INTO folders (account_id, name, created_at) VALUES (?, 'f', ?) RETURNING id",
          accountId,
          Date.now(),
        ),
      ).id;
      await db.a.run(
        `INSERT INTO dl_collections (id, account_id, name, safety_detector, face_recognition, folder_id, state, created_at, updated_at)
         VALUES (?, ?, ?, 1, 0, ?, 'active', ?, ?)`,
        collection,
        accountId,
        'c',
        folder,
        Date.now(),
        Date.now(),
      );
      const stream = await streams.create({
        accountId,
        collectionId: collection,
        sourceUrl: 'http://127.0.0.1/live.m3u8',
        fps: 1,
        segmentSeconds: 10,
        metadata: { cam: 2 },
      });
      await streams.addSegment(stream.id, 20);
      await streams.addSegment(stream.id, 10);
      expect(await streams.byId(stream.id)).toMatchObject({ status: 'live', segments: 2, next_offset: 20 });
      expect((await streams.activeInCollection(collection)).map((s) => s.id)).toEqual([stream.id]);
      await streams.setStatus(stream.id, 'stopped');
      await streams.setStatus(stream.id, 'live'); // stopped stays stopped
      expect((await streams.get(accountId, stream.id))?.status).toBe('stopped');
      expect((await streams.list(accountId, { limit: 5, after: undefined })).rows).toHaveLength(1);

      const e = { score: 0.9, description: 'd', detectorId: 'nsfw', detectorVersion: '1' };
      for (const start of [3, 1, 2]) await events.add('vid_1', { ...e, start, end: start + 1 });
      const page = await events.page('vid_1', undefined, { limit: 2, after: undefined });
      expect(page.rows.map((r) => r.start)).toEqual([1, 2]);
      expect(page.nextCursor).not.toBeNull();
      expect((await events.overlapping('vid_1', 1.5, 2.5)).map((r) => r.start)).toEqual([1, 2]);
      const scores = { Drawing: 0, Hentai: 0, Neutral: 0.2, Porn: 0.8, Sexy: 0 };
      await events.addFrame('vid_1', 1, 0.5, scores);
      await events.addFrame('vid_1', 1, 0.8, scores); // the same frame again replaces it
      expect(await events.frameSummary('vid_1')).toEqual({ frames: 1, maxUnsafe: 0.8 });
      expect(await events.count('vid_1')).toBe(3);
      await events.clear('vid_1');
      expect(await events.frameSummary('vid_1')).toEqual({ frames: 0, maxUnsafe: null });
    });
  });
});
