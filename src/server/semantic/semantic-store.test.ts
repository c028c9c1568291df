import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { indexedVideo } from '../../../test/helpers/indexed-video';
import { newAccount } from '../../../test/helpers/library-rows';
import { SERVICE_SQL_ENGINES, useSharedDatabase } from '../../../test/helpers/service-sql';
import { PgSegmentSearch } from '../search/pg/pg-segment-search';
import type { SearchRequest } from '../search/workers/search-protocol';
import type { Sql } from '../storage/sql';
import { EmbeddingStore } from './embedding-store';
import { fuseSemantic } from '../search/ranking/semantic-fusion';
import { VectorCache, type AccountVectors } from '../search/ranking/vector-cache';

/**
 * The semantic slot's rows on both engines: vectors stored and read back, the version a second connection (another
 * search process) reads to know they changed, and fusion ranking the caller's keyframes only.
 */

const MODEL = 'tests/tiny-clip';
const DIM = 4;

const unit = (...xs: number[]): Float32Array => {
  const norm = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / norm);
};

async function versionOf(sql: Sql, model = MODEL): Promise<number> {
  const row = await sql.get('SELECT version FROM segment_embedding_versions WHERE model = ?', model);
  return row === undefined ? 0 : z.object({ version: z.number() }).parse(row).version;
}

/** Statements of this database waiting for a lock (PostgreSQL). */
async function lockWaits(sql: Sql): Promise<number> {
  const row = await sql.get(
    "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
  );
  return z.object({ n: z.number() }).parse(row).n;
}

async function until(done: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`still not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The segments whose vectors a cache holds, in id order (its matrix rows are in no order). */
const idsOf = (vectors: AccountVectors): number[] => [...vectors.ids].sort((a, b) => a - b);

function request(accountId: number, vector: Float32Array, filter: Partial<SearchRequest['filter']> = {}) {
  return {
    text: 'a red  tomato',
    field: 'all' as const,
    filter: { accountId, ...filter },
    limit: 10,
    semantic: { model: MODEL, vector: Array.from(vector), floor: 0, ceiling: 1 },
  } satisfies SearchRequest;
}

describe.each(SERVICE_SQL_ENGINES)('semantic rows on %s', (engine) => {
  const database = useSharedDatabase(engine);

  it('stores vectors exactly, lists what is pending in order, and skips a segment deleted meanwhile', async () => {
    const sql = await database().connect();
    const store = new EmbeddingStore(sql);
    const accountId = await newAccount(sql);
    const { segmentIds } = await indexedVideo(sql, accountId, 3);
    expect(await store.pendingCount(MODEL)).toBe(3);
    expect((await store.pending(MODEL, 0, 2)).map((k) => k.segmentId)).toEqual(segmentIds.slice(0, 2));
    expect((await store.pending(MODEL, segmentIds[1]!, 2)).map((k) => k.segmentId)).toEqual([segmentIds[2]]);
    const gone = segmentIds[2]!;
    await sql.run('DELETE FROM segments WHERE id = ?', gone);
    const vectors = [unit(1, 0, 0, 0), unit(0.1, 0.2, 0.3, 0.4), unit(0, 0, 0, 1)];
    await store.put(
      MODEL,
      [segmentIds[0]!, segmentIds[1]!, gone].map((segmentId, i) => ({ segmentId, vector: vectors[i]! })),
    );
    expect(await store.embedded(MODEL)).toBe(2);
    expect(await store.pendingCount(MODEL)).toBe(0);
    expect(await store.embedded('another/model')).toBe(0);
    const read = await new VectorCache(sql).vectors(accountId, MODEL, DIM);
    const byId = new Map(read.ids.map((id, row) => [id, Array.from(read.matrix.subarray(row * DIM, (row + 1) * DIM))]));
    expect(byId).toEqual(
      new Map([
        [segmentIds[0], Array.from(vectors[0]!)],
        [segmentIds[1], Array.from(vectors[1]!)],
      ]),
    );
  });

  it('bumps the model version with every change to its vectors, and a second connection sees it', async () => {
    const writer = await database().connect();
    const reader = await database().connect();
    const store = new EmbeddingStore(writer);
    const cache = new VectorCache(reader);
    const accountId = await newAccount(writer);
    const first = await indexedVideo(writer, accountId, 2);
    const second = await indexedVideo(writer, accountId, 1);
    expect((await cache.vectors(accountId, MODEL, DIM)).ids).toEqual([]);

    await store.put(MODEL, [{ segmentId: first.segmentIds[0]!, vector: unit(1, 0, 0, 0) }]);
    const v1 = await versionOf(reader);
    expect(v1).toBeGreaterThan(0);
    const one = await cache.vectors(accountId, MODEL, DIM);
    expect(one.ids).toEqual([first.segmentIds[0]]);
    // Nothing of the model changed: the same matrix, not read again.
    await writer.run('INSERT INTO segments (video_id, idx, start_time, end_time) VALUES (?, 9, 0, 1)', second.videoId);
    await new EmbeddingStore(writer).put('another/model', [{ segmentId: second.segmentIds[0]!, vector: unit(1, 1) }]);
    await writer.run('DELETE FROM segments WHERE video_id = ? AND idx = 9', second.videoId);
    await writer.run("UPDATE videos SET status = 'FAIL' WHERE id = ?", second.videoId);
    expect(await versionOf(reader)).toBe(v1);
    expect((await cache.vectors(accountId, MODEL, DIM)).matrix).toBe(one.matrix);
    // Another account's vectors changed: the version moves, this account's count and id sum do not, nor its matrix.
    const stranger = await newAccount(writer);
    const theirs = await indexedVideo(writer, stranger, 1);
    await store.put(MODEL, [{ segmentId: theirs.segmentIds[0]!, vector: unit(1, 0, 0, 0) }]);
    expect(await versionOf(reader)).toBeGreaterThan(v1);
    expect((await cache.vectors(accountId, MODEL, DIM)).matrix).toBe(one.matrix);

    await writer.run("UPDATE videos SET status = 'PARSE' WHERE id = ?", second.videoId);
    await store.put(MODEL, [
      { segmentId: first.segmentIds[1]!, vector: unit(0, 1, 0, 0) },
      { segmentId: second.segmentIds[0]!, vector: unit(0, 0, 1, 0) },
    ]);
    expect(await versionOf(reader)).toBeGreaterThan(v1);
    expect(idsOf(await cache.vectors(accountId, MODEL, DIM))).toEqual([...first.segmentIds, ...second.segmentIds]);

    // A video with vectors leaving the indexed state, and a cascade from a deleted video, bump it too.
    let before = await versionOf(reader);
    await writer.run("UPDATE videos SET status = 'FAIL' WHERE id = ?", second.videoId);
    expect(await versionOf(reader)).toBeGreaterThan(before);
    expect(idsOf(await cache.vectors(accountId, MODEL, DIM))).toEqual(first.segmentIds);
    before = await versionOf(reader);
    await writer.transaction((tx) => tx.run('DELETE FROM videos WHERE id = ?', first.videoId));
    expect(await versionOf(reader)).toBeGreaterThan(before);
    expect((await cache.vectors(accountId, MODEL, DIM)).ids).toEqual([]);
    // A rolled-back write leaves the version as it was.
    before = await versionOf(reader);
    await expect(
      writer.transaction(async (tx) => {
        await tx.run("UPDATE videos SET status = 'PARSE' WHERE id = ?", second.videoId);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versionOf(reader)).toBe(before);
  });

  // PostgreSQL only: one SQLite connection writes at a time, so no two transactions there ever wait for each other.
  if (engine === 'postgres')
    it('a batch of vectors gives way to a transaction deleting several videos, which never fails for it', async () => {
      const deleter = await database().connect();
      const watcher = await database().connect();
      const store = new EmbeddingStore(await database().connect());
      const accountId = await newAccount(deleter);
      const first = await indexedVideo(deleter, accountId, 1);
      const second = await indexedVideo(deleter, accountId, 1);
      await store.put(MODEL, [{ segmentId: first.segmentIds[0]!, vector: unit(1, 0, 0, 0) }]);
      let put: Promise<void> | undefined;
      await deleter.transaction(async (tx) => {
        // Deleting the first video's vector bumps the version: this transaction holds its row until it commits.
        await tx.run('DELETE FROM videos WHERE id = ?', first.videoId);
        // The batch locks the second video's segment (its foreign key), then waits for the version row.
        put = store.put(MODEL, [{ segmentId: second.segmentIds[0]!, vector: unit(0, 1, 0, 0) }]);
        await until(async () => (await lockWaits(watcher)) > 0);
        // Deleting that segment waits for the batch: a deadlock unless the batch gives way.
        await tx.run('DELETE FROM videos WHERE id = ?', second.videoId);
      });
      await put;
      expect(await store.embedded(MODEL)).toBe(0);
      expect(await deleter.get('SELECT COUNT(*) AS n FROM videos')).toEqual({ n: 0 });
    });

  it("ranks the caller's keyframes only, under the search's filters", async () => {
    const sql = await database().connect();
    const store = new EmbeddingStore(sql);
    const mine = await newAccount(sql);
    const theirs = await newAccount(sql);
    const red = await indexedVideo(sql, mine, 1);
    const reddish = await indexedVideo(sql, mine, 1);
    const other = await indexedVideo(sql, theirs, 1);
    const query = unit(1, 0, 0, 0);
    await store.put(MODEL, [
      { segmentId: red.segmentIds[0]!, vector: unit(0.9, 0.1, 0, 0) },
      { segmentId: reddish.segmentIds[0]!, vector: unit(0.5, 0.5, 0, 0) },
      // The other account's keyframe is the query itself: it would rank first if it were ever scanned.
      { segmentId: other.segmentIds[0]!, vector: query },
    ]);
    const hits = await fuseSemantic(sql, request(mine, query), []);
    expect(hits.map((h) => h.videoNo)).toEqual([red.videoNo, reddish.videoNo]);
    expect(hits[0]!.matched).toBe('looks like: a red tomato');
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect((await fuseSemantic(sql, request(mine, query, { videoNos: [reddish.videoNo] }), [])).length).toBe(1);
    expect((await fuseSemantic(sql, request(theirs, query), [])).map((h) => h.videoNo)).toEqual([other.videoNo]);
    if (engine === 'postgres') {
      // The team server's segment search fuses the same way (no keyword index rows here: semantic hits alone).
      const found = await new PgSegmentSearch(sql).search(request(mine, query));
      expect(found.map((h) => h.videoNo)).toEqual([red.videoNo, reddish.videoNo]);
    }
  });
});
