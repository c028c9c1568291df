import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexedVideo } from '../../../test/helpers/indexed-video';
import { newAccount } from '../../../test/helpers/library-rows';
import { startModelHub, type ModelHub } from '../../../test/helpers/model-hub';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { tempDir } from '../../../test/helpers/temp';
import { tinyClipFiles } from '../../../test/helpers/tiny-clip/tiny-clip';
import { PgSegmentSearch } from '../search/pg/pg-segment-search';
import type { SegmentSearch } from '../search/search-pool';
import { LocalBlobStore } from '../storage/local-blob-store';
import type { Sql } from '../storage/sql';
import { semanticConfigSchema } from './semantic-config';
import { fuseSemantic } from './semantic-rank';
import { withSemantic } from './semantic-search';
import { SemanticSlot } from './semantic-slot';

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

  it('downloads the model, embeds the keyframes into its table, and ranks by what they look like', async () => {
    const blobs = new LocalBlobStore(join(dir, 'blobs'));
    await blobs.check();
    const accountId = await newAccount(t.sql);
    const videos: Record<string, string> = {};
    for (const colour of ['red', 'blue']) {
      const video = await indexedVideo(t.sql, accountId, 1);
      const frame = join(dir, `${colour}.jpg`);
      const colourSource = ['-f', 'lavfi', '-i', `color=c=${colour}:size=64x64`];
      await run('ffmpeg', ['-v', 'error', ...colourSource, '-frames:v', '1', frame]);
      await blobs.adopt(`reelsync-${accountId}`, `keyframes/${video.videoNo}/0.jpg`, frame);
      videos[colour] = video.videoNo;
    }
    const config = semanticConfigSchema.parse({
      host: hub.url,
      model: REPO,
      similarityFloor: 0,
      similarityCeiling: 0.6,
    });
    const log = pino({ level: 'silent' });
    const slot = new SemanticSlot({
      dataDir: dir,
      config,
      sql: t.sql,
      blobs,
      log,
      embedsKeyframes: true,
      sharedDatabase: false,
    });
    try {
      await slot.start();
      expect(await slot.state()).toEqual({ state: 'off', model: REPO, reason: 'model not downloaded' });
      await slot.startDownload();
      const end = Date.now() + 30_000;
      for (;;) {
        const state = await slot.state();
        if (state.state === 'ready' && state.embeddedSegments === 2 && state.pendingSegments === 0) break;
        if (state.state === 'failed' || Date.now() > end) throw new Error(`slot: ${JSON.stringify(state)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
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
});
