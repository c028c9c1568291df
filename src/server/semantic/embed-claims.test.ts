import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexedVideo } from '../../../test/helpers/indexed-video';
import { newAccount } from '../../../test/helpers/library-rows';
import { SERVICE_SQL_ENGINES, useSharedDatabase } from '../../../test/helpers/service-sql';
import { tempDir } from '../../../test/helpers/temp';
import { LocalBlobStore } from '../storage/local-blob-store';
import type { Sql } from '../storage/sql';
import type { Embedder } from './clip-embedder';
import { EmbedBacklog, FULL_PASS_EVERY } from './embed-backlog';
import { EmbedClaims } from './embed-claims';
import { EmbeddingStore } from './embedding-store';

/**
 * Keyframe embedding across processes on one database: each keyframe is claimed by one backlog before it is embedded,
 * and a claim left by a process that died lapses so that another finishes its keyframes.
 */

const MODEL = 'tests/claims';
const log = pino({ level: 'silent' });

/**
 * An embedder standing in for the model (the model itself runs in semantic-slot.test.ts): it records every keyframe
 * file it is given and takes a while per batch, as a model does, so two backlogs overlap.
 */
function recordingEmbedder(seen: string[]): Embedder {
  return {
    dim: 2,
    async embedImages(files) {
      seen.push(...files);
      await sleep(20);
      return files.map(() => Float32Array.from([1, 0]));
    },
    embedText: () => Promise.resolve(Float32Array.from([1, 0])),
    close: () => Promise.resolve(),
  };
}

describe.each(SERVICE_SQL_ENGINES)('keyframe embedding claims on %s', (engine) => {
  const database = useSharedDatabase(engine);
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-embed-claims-'));
  });
  afterEach(async () => {
    await cleanup();
  });

  let frames = 0;
  /** An indexed video of `segments` segments whose keyframes are in `blobs`; its segment ids. */
  async function videoWithKeyframes(
    sql: Sql,
    blobs: LocalBlobStore,
    accountId: number,
    segments: number,
  ): Promise<number[]> {
    const video = await indexedVideo(sql, accountId, segments);
    for (let i = 0; i < video.segmentIds.length; i++) {
      const file = join(dir, `frame-${frames++}.jpg`);
      await writeFile(file, 'jpeg');
      await blobs.adopt(`reelsync-${accountId}`, `keyframes/${video.videoNo}/${i}.jpg`, file);
    }
    return video.segmentIds;
  }

  it('two processes draining one backlog at once embed every keyframe exactly once between them', async () => {
    const setup = await database().connect();
    const blobs = new LocalBlobStore(join(dir, 'blobs'));
    await blobs.check();
    const accountId = await newAccount(setup);
    let keyframes = 0;
    for (let v = 0; v < 5; v++) keyframes += (await videoWithKeyframes(setup, blobs, accountId, 8)).length;
    const seen = { a: [] as string[], b: [] as string[] };
    const backlogOf = async (name: 'a' | 'b') => {
      const sql = await database().connect();
      const backlog = new EmbedBacklog(
        new EmbeddingStore(sql),
        new EmbedClaims(sql, `process-${name}`, 60_000),
        blobs,
        log,
      );
      return () => backlog.drain(MODEL, () => Promise.resolve(recordingEmbedder(seen[name])));
    };
    const drains = [await backlogOf('a'), await backlogOf('b')];
    await Promise.all(drains.map((drain) => drain()));

    const all = [...seen.a, ...seen.b];
    expect(all.length).toBe(keyframes);
    expect(new Set(all).size).toBe(keyframes);
    // Both took part: the second skipped past what the first had claimed rather than waiting or repeating it.
    expect(seen.a.length).toBeGreaterThan(0);
    expect(seen.b.length).toBeGreaterThan(0);
    const store = new EmbeddingStore(setup);
    expect(await store.embedded(MODEL)).toBe(keyframes);
    expect(await store.pendingCount(MODEL)).toBe(0);
    // Every claim was given back.
    expect(await setup.get('SELECT COUNT(*) AS n FROM segment_embed_claims')).toEqual({ n: 0 });
  });

  it("a dead process's claims lapse: another takes its keyframes over, and the first can no longer release them", async () => {
    const sql = await database().connect();
    const accountId = await newAccount(sql);
    const { segmentIds } = await indexedVideo(sql, accountId, 3);
    const store = new EmbeddingStore(sql);
    const dead = new EmbedClaims(await database().connect(), 'dead', 300);
    const alive = new EmbedClaims(await database().connect(), 'alive', 300);

    expect(await dead.claim(MODEL, segmentIds.slice(0, 2))).toEqual(segmentIds.slice(0, 2));
    // Live claims: not offered as pending, and not claimable.
    expect((await store.pending(MODEL, 0, 10)).map((k) => k.segmentId)).toEqual([segmentIds[2]]);
    expect(await alive.claim(MODEL, segmentIds)).toEqual([segmentIds[2]]);
    expect(await store.pendingCount(MODEL)).toBe(3);

    await sleep(400);
    expect((await store.pending(MODEL, 0, 10)).map((k) => k.segmentId)).toEqual(segmentIds);
    expect((await alive.claim(MODEL, segmentIds)).sort((x, y) => x - y)).toEqual(segmentIds);
    // The dead one's late release leaves the new holder's claims alone.
    await dead.release(MODEL, segmentIds);
    expect(await sql.get("SELECT COUNT(*) AS n FROM segment_embed_claims WHERE claimed_by = 'alive'")).toEqual({
      n: 3,
    });

    // Claims lapsed for a lease and more (their keyframes deleted meanwhile, say) are swept.
    await sleep(700);
    expect(await alive.sweep()).toBe(3);
    expect(await sql.get('SELECT COUNT(*) AS n FROM segment_embed_claims')).toEqual({ n: 0 });
  });
  it('passes after a clean one start past it; every tenth, and the one after a failure, starts from the first', async () => {
    const sql = await database().connect();
    const blobs = new LocalBlobStore(join(dir, 'blobs'));
    await blobs.check();
    const accountId = await newAccount(sql);
    const first = await videoWithKeyframes(sql, blobs, accountId, 4);
    const seen: string[] = [];
    const backlog = new EmbedBacklog(new EmbeddingStore(sql), new EmbedClaims(sql, 'only', 60_000), blobs, log);
    const drain = () => backlog.drain(MODEL, () => Promise.resolve(recordingEmbedder(seen)));
    await drain(); // pass 1, from the first segment
    expect(seen.length).toBe(4);
    // A keyframe below the mark loses its vector (as one another process claimed and dropped would have none).
    await sql.run('DELETE FROM segment_embeddings WHERE segment_id = ?', first[1]!);
    const later = await videoWithKeyframes(sql, blobs, accountId, 2);
    await drain(); // pass 2, past the mark: the new video's keyframes only
    expect(seen.length).toBe(6);
    for (let pass = 3; pass <= FULL_PASS_EVERY; pass++) await drain();
    expect(seen.length).toBe(6);
    await drain(); // pass 11: from the first segment again
    expect(seen.length).toBe(7);
    expect(await new EmbeddingStore(sql).pendingCount(MODEL)).toBe(0);
    expect(later.every((id) => id > first[3]!)).toBe(true);
  });
});
