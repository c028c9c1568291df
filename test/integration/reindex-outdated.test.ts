import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../src/server/config';
import type { AnalyzeOptions, AnalyzeResult } from '../../src/server/indexer/analyze-video';
import { INDEX_RULES_VERSION } from '../../src/server/indexer/index-rules';
import { startService, type RunningService } from '../../src/server/service';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { clipAt } from '../fixtures/generated-clips';
import { fixturePath } from '../fixtures/media';
import { TEST_PATTERN_JPEG } from '../fixtures/test-clips';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../helpers/postgres';
import { cliSync } from '../helpers/service';
import { tempDir } from '../helpers/temp';

// The real service in this process (queue, job handlers, persisting, search and billing the real ones) on SQLite and
// on PostgreSQL, with the indexer's analysis narrowed to a stand-in whose labels follow `labelNow`: what the rules of
// the build that indexes would find. A re-index is then told from the first index by the label it writes.
const ENGINES = skipPostgresTests ? (['sqlite'] as const) : (['sqlite', 'postgres'] as const);

const stampRow = z.object({ index_rules: z.string().nullable(), status: z.string() });

describe.each(ENGINES)('re-indexing videos indexed under older rules, on %s', (engine) => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let pg: TestPostgres | undefined;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let key: string;
  let keyframe: string;
  let service: (RunningService & { url: string }) | undefined;
  let api: ApiClient;
  const labelNow = 'oldlabel';
  const analyzed: string[] = [];

  async function standInAnalysis(opts: AnalyzeOptions): Promise<AnalyzeResult> {
    analyzed.push(labelNow);
    const keyframePath = join(opts.workDir, 'k0.jpg');
    const posterPath = join(opts.workDir, 'poster.jpg');
    await copyFile(keyframe, keyframePath);
    await copyFile(keyframe, posterPath);
    const label = { label: labelNow, score: 0.9, source: 'objects:stand-in' };
    return {
      durationSeconds: 3,
      posterPath,
      segments: [
        {
          index: 0,
          start: 0,
          end: 3,
          keyframePath,
          ocrText: '',
          labels: [label],
          transcript: '',
          caption: '',
          faces: [],
        },
      ],
      words: [],
      missingEngines: [],
      analyzers: [],
      failures: [],
    };
  }

  async function start(indexer: object = {}): Promise<void> {
    await service?.close();
    service = await startService({
      dataDir,
      config: parseConfig({
        ...(databaseUrl ? { database: { url: databaseUrl } } : {}),
        indexer,
        jobs: { pollMs: 50, renewMs: 500, leaseMs: 5000 },
      }),
      log: pino({ level: 'silent' }),
      analyze: standInAnalysis,
    });
    api = apiClient(`${service.url}${API_BASE_PATH}`, key);
  }

  const sql = () => service!.ctx.sql;
  const stampOf = async (videoNo: string) =>
    stampRow.parse(await sql().get('SELECT index_rules, status FROM videos WHERE video_no = ?', videoNo));

  async function uploadIndexed(): Promise<string> {
    const up = await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'));
    const videoNo = up.json.data!.videoNo;
    expect((await waitForStatus(api, videoNo, 60_000)).status).toBe('PARSE');
    return videoNo;
  }

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-reindex-'));
    dataDir = join(dir, 'data');
    const where = ['--data', dataDir];
    if (engine === 'postgres') {
      pg = await startPostgres();
      databaseUrl = await pg.createDatabase();
      const configFile = join(dir, 'config.json');
      await writeFile(configFile, JSON.stringify({ database: { url: databaseUrl } }));
      where.push('--config', configFile);
    }
    key = cliSync(['key', 'create', ...where, '--account', 'editor', '--interface', 'library', '--credits', '100']);
    keyframe = join(dir, 'keyframe.jpg');
    await clipAt(TEST_PATTERN_JPEG, keyframe);
    await start();
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    await pg?.stop();
    await cleanup?.();
  });

  it('stamps an indexed video with the rules version it was indexed under', async () => {
    const videoNo = await uploadIndexed();
    expect(await stampOf(videoNo)).toEqual({ index_rules: INDEX_RULES_VERSION, status: 'PARSE' });
  }, 90_000);
});
