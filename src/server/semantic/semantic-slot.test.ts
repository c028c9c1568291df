import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SemanticState } from '../../shared/semantic-state';
import { indexedVideo } from '../../../test/helpers/indexed-video';
import { newAccount } from '../../../test/helpers/library-rows';
import { startModelHub, type ModelHub } from '../../../test/helpers/model-hub';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { tempDir } from '../../../test/helpers/temp';
import { tinyClipFiles } from '../../../test/helpers/tiny-clip/tiny-clip';
import { PgSegmentSearch } from '../search/pg/pg-segment-search';
import type { SegmentSearch } from '../search/workers/search-pool';
import { LocalBlobStore } from '../storage/local-blob-store';
import type { Sql } from '../storage/sql';
import { semanticConfigSchema } from './semantic-config';
import { ModelRequests } from './model-requests';
import { fuseSemantic } from '../search/ranking/semantic-fusion';
import { withSemantic } from './semantic-search';
import { SemanticSlot } from './semantic-slot';
import { lavfi } from '../../../test/fixtures/generated-clips';

/**
 * The semantic slot on each engine with the generated CLIP-shaped model (test/helpers/tiny-clip) served like the Hub:
 * downloaded, keyframes embedded through the slot's backlog into the engine's table, and search fused with the
 * query's embedding. On SQLite the service's path is also covered end to end (test/integration/semantic-model).
 */

const run = promisify(execFile);
const REPO = 'tests/tiny-clip';

/** Keyword side of the search: PostgreSQL's own; on SQLite the worker's fusion step alone (no FTS5 rows here). */
function keywordSearch(sql: Sql): SegmentSearch {
  return sql.dialect === 'postgres'
    ? new PgSegmentSearch(sql)
    : { search: (request) => fuseSemantic(sql, request, []) };
}

describe.each(SERVICE_SQL_ENGINES)('semantic slot on %s', (engine) => {
  const t = useServiceSql(engine);
  let hub: ModelHub;
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    hub = await startModelHub(REPO, tinyClipFiles());
    ({ dir, cleanup } = await tempDir('reelsync-semantic-slot-'));
  });
  afterEach(async () => {
    await hub.close();
    await cleanup();
  });

  /** A red and a blue keyframe of two indexed videos of a new account, stored in `blobs`. */
  async function colourKeyframes(blobs: LocalBlobStore) {
    const accountId = await newAccount(t.sql);
    const videos: Record<string, string> = {};
    for (const colour of ['red', 'blue']) {
      const video = await indexedVideo(t.sql, accountId, 1);
      const frame = join(dir, `${colour}.jpg`);
      const colourSource = lavfi(`color=c=${colour}:size=64x64`);
      await run('ffmpeg', ['-v', 'error', ...colourSource, '-frames:v', '1', frame]);
      await blobs.adopt(`reelsync-${accountId}`, `keyframes/${video.videoNo}/0.jpg`, frame);
      videos[colour] = video.videoNo;
    }
    return { accountId, videos };
  }

  const configOf = (extra: Record<string, unknown> = {}) =>
    semanticConfigSchema.parse({ host: hub.url, model: REPO, similarityFloor: 0, similarityCeiling: 0.6, ...extra });

  /** Polls the slot's state until `done` holds. */
  async function until(
    slot: SemanticSlot,
    done: (s: SemanticState) => boolean,
    mayFail = false,
  ): Promise<SemanticState> {
    const end = Date.now() + 30_000;
    for (;;) {
      const state = await slot.state();
      if (done(state)) return state;
      if ((state.state === 'failed' && !mayFail) || Date.now() > end) throw new Error(`slot: ${JSON.stringify(state)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('downloads the model, embeds the keyframes into its table, and ranks by what they look like', async () => {
    const blobs = new LocalBlobStore(join(dir, 'blobs'));
    await blobs.check();
    const { accountId, videos } = await colourKeyframes(blobs);
    const log = pino({ level: 'silent' });
    const slot = new SemanticSlot({
      dataDir: dir,
      config: configOf(),
      sql: t.sql,
      blobs,
      log,
      embedsKeyframes: true,
      sharedDatabase: false,
    });
    try {
      await slot.start();
      // Off: what the model weighs is asked of the host (not known at the first look).
      expect(await slot.state()).toEqual({
        state: 'off',
        model: REPO,
        reason: 'model not downloaded',
        expectedBytes: null,
      });
      await slot.startDownload();
      await until(slot, (s) => s.state === 'ready' && s.embeddedSegments === 2 && s.pendingSegments === 0);
      const search = withSemantic(keywordSearch(t.sql), slot);
      const ask = async (text: string) =>
        (await search.search({ text, field: 'all', filter: { accountId }, limit: 10 })).map((h) => h.videoNo);
      // "tomato" is a word only the model links to a red picture.
      expect(await ask('tomato')).toEqual([videos.red]);
      expect((await ask('blue sky'))[0]).toBe(videos.blue);
    } finally {
      await slot.stop();
    }
  });

  it('on a shared database: an API replica fetches a model asked for elsewhere for queries, and leaves keyframes to a worker', async () => {
    const blobs = new LocalBlobStore(join(dir, 'blobs'));
    await blobs.check();
    const { accountId, videos } = await colourKeyframes(blobs);
    const config = configOf({ pollMs: 100 });
    const log = pino({ level: 'silent' });
    const slotIn = (name: string, embedsKeyframes: boolean) =>
      new SemanticSlot({
        dataDir: join(dir, name),
        config,
        sql: t.sql,
        blobs,
        log,
        embedsKeyframes,
        sharedDatabase: true,
      });
    const api = slotIn('api', false);
    const worker = slotIn('worker', true);
    try {
      await api.start();
      expect((await api.state()).state).toBe('off');
      // Another process's POST /semantic/download: this one learns of it at its next look.
      await new ModelRequests(t.sql).mark(config);
      await until(api, (s) => s.state === 'ready');
      // Several looks later it has still embedded no keyframe: they wait for a worker.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await api.state()).toMatchObject({ state: 'ready', embeddedSegments: 0, pendingSegments: 2 });
      expect((await api.queryVector('red'))?.length).toBeGreaterThan(0);

      // A worker started later fetches the model as asked for and embeds them.
      await worker.start();
      await until(worker, (s) => s.state === 'ready' && s.embeddedSegments === 2 && s.pendingSegments === 0);
      const search = withSemantic(keywordSearch(t.sql), api);
      const found = await search.search({ text: 'tomato', field: 'all', filter: { accountId }, limit: 10 });
      expect(found.map((h) => h.videoNo)).toEqual([videos.red]);
    } finally {
      await api.stop();
      await worker.stop();
    }
  });
  it('on a shared database: a download that failed is tried again when asked for again, not at every look', async () => {
    const blobs = new LocalBlobStore(join(dir, 'blobs'));
    await blobs.check();
    const config = configOf({ pollMs: 50 });
    const worker = new SemanticSlot({
      dataDir: join(dir, 'worker'),
      config,
      sql: t.sql,
      blobs,
      log: pino({ level: 'silent' }),
      embedsKeyframes: true,
      sharedDatabase: true,
    });
    const requests = new ModelRequests(t.sql);
    hub.faults = { wrongChecksum: 'onnx/text_model_quantized.onnx' };
    try {
      await worker.start();
      await requests.mark(config);
      const failed = await until(worker, (s) => s.state === 'failed', true);
      expect(failed.state === 'failed' && failed.reason).toMatch(/does not match the checksum/);
      // The host is fixed; looks come and go, and the download stays failed (no request every look).
      hub.faults = {};
      const asked = hub.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await worker.state()).state).toBe('failed');
      expect(hub.requests.length).toBe(asked);
      // Asked for again (POST /semantic/download on any replica): this process tries again and succeeds.
      await requests.mark(config);
      await until(worker, (s) => s.state === 'ready', true);
    } finally {
      await worker.stop();
    }
  });
});
