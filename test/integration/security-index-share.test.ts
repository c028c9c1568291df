import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import pino from 'pino';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import { indexingPrice } from '../../src/server/accounts/billing';
import type { AnalyzeOptions, AnalyzeResult } from '../../src/server/indexer/analyze-video';
import { startService, type RunningService } from '../../src/server/service';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { fixturePath } from '../fixtures/media';
import { clipAt } from '../fixtures/generated-clips';
import { TEST_PATTERN_JPEG } from '../fixtures/test-clips';
import { oneShotAnalysis } from '../helpers/one-shot-analysis';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { datalakeClient, type DatalakeClient } from '../helpers/datalake';
import { mkvDeclaringOneMillisecond, mkvWithSqueezedTimestamps } from '../helpers/lying-media';
import { cliSync } from '../helpers/service';
import { tempDir } from '../helpers/temp';

// The real service in this process, over real HTTP, with the indexer's analysis narrowed to a timed stand-in (the
// queue, the job handler, its time limit, persisting and billing are the real ones): each analysis records which
// file it got, waits for `gate`, then takes ANALYSIS_MS; a file named hang-* runs until the job is stopped.
const ANALYSIS_MS = 150;
const LIMIT = { timeLimitPerVideoSecond: 0.5, timeLimitFloorSeconds: 1 };

let dir: string;
let cleanup: () => Promise<void>;
let service: RunningService & { url: string };
let alpha: ApiClient;
let beta: ApiClient;
let betaLake: DatalakeClient;
let keyframe: string;
const analyzed: string[] = [];
let gate: Promise<void> = Promise.resolve();

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

async function standInAnalysis(opts: AnalyzeOptions): Promise<AnalyzeResult> {
  const name = basename(opts.videoPath);
  analyzed.push(name);
  if (name.startsWith('hang-')) await sleep(120_000, opts.signal);
  await gate;
  await sleep(ANALYSIS_MS, opts.signal);
  return oneShotAnalysis(opts.workDir, keyframe, { caption: name });
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-index-share-'));
  const dataDir = join(dir, 'data');
  const alphaKey = cliSync([
    'key',
    'create',
    '--data',
    dataDir,
    '--account',
    'alpha',
    '--interface',
    'library',
    '--credits',
    '100',
  ]);
  const betaKey = cliSync([
    'key',
    'create',
    '--data',
    dataDir,
    '--account',
    'beta',
    '--interface',
    'library',
    '--credits',
    '100',
  ]);
  const betaLakeKey = cliSync(['key', 'create', '--data', dataDir, '--account', 'beta', '--interface', 'datalake']);
  keyframe = join(dir, 'keyframe.jpg');
  await clipAt(TEST_PATTERN_JPEG, keyframe);
  service = await startService({
    dataDir,
    config: parseConfig({ indexer: LIMIT }),
    log: pino({ level: 'silent' }),
    analyze: standInAnalysis,
  });
  alpha = apiClient(`${service.url}${API_BASE_PATH}`, alphaKey);
  beta = apiClient(`${service.url}${API_BASE_PATH}`, betaKey);
  betaLake = datalakeClient(service.url, betaLakeKey);
}, 60_000);

afterAll(async () => {
  await service?.close();
  await cleanup?.();
});

const balance = async () =>
  (await betaLake.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd;

describe('indexing is priced by what will be decoded', () => {
  it('refuses a container that declares 1 ms over 20 s, and timestamps squeezed together; charges an honest file by its length', async () => {
    const lie = await mkvDeclaringOneMillisecond(join(dir, 'lie.mkv'), 20);
    const squeezed = await mkvWithSqueezedTimestamps(join(dir, 'squeezed.mkv'));
    const before = await balance();
    const refused = await beta.upload(lie, {}, { contentType: 'video/x-matroska' });
    expect(refused.status).toBe(400);
    expect(refused.json.msg).toBe(
      'file is not accepted: it declares a duration of 0.001 s but its streams run 20.0 s, so its duration cannot be trusted',
    );
    const squeezedAnswer = await beta.upload(squeezed, {}, { contentType: 'video/x-matroska' });
    expect(squeezedAnswer.status).toBe(400);
    expect(squeezedAnswer.json.msg).toMatch(/its video stream packs 600 packets into 0\.6 s .* cannot be trusted/);

    const collection = (await betaLake.post<{ collection_id: string }>('/collections', { name: 'lies' })).json
      .collection_id;
    const form = new FormData();
    form.append('json', JSON.stringify({ collection_id: collection }));
    form.append('file', new Blob([await readFile(lie)], { type: 'video/x-matroska' }), 'lie.mkv');
    const ingest = await betaLake.post<{ error: { code: string; message: string } }>('/videos', form);
    expect(ingest.status).toBe(415);
    expect(ingest.json.error.message).toMatch(/declares a duration of 0\.001 s but its streams run 20\.0 s/);
    expect(await balance()).toBe(before);

    const honest = await beta.upload<{ videoNo: string }>(
      fixturePath('phoneH264Mp4'),
      {},
      { filename: 'b-honest.mp4' },
    );
    expect(honest.status).toBe(200);
    const meta = await waitForStatus(beta, honest.json.data?.videoNo ?? '', 20_000);
    expect(meta.status).toBe('PARSE');
    expect(meta.duration).toBeCloseTo(3, 1);
    expect(before - (await balance())).toBe(indexingPrice(meta.duration as number));
  });
});

describe('accounts share the indexer', () => {
  it("one account's backlog does not hold another account's video", async () => {
    let open = () => {};
    gate = new Promise((resolve) => (open = resolve));
    analyzed.length = 0;
    const alphaVideos: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const up = await alpha.upload<{ videoNo: string }>(
        fixturePath('phoneH264Mp4'),
        {},
        { filename: `alpha-${i}.mp4` },
      );
      alphaVideos.push(up.json.data?.videoNo ?? '');
    }
    const b = await beta.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'), {}, { filename: 'beta-1.mp4' });
    open();
    for (const videoNo of alphaVideos) expect((await waitForStatus(alpha, videoNo, 30_000)).status).toBe('PARSE');
    expect((await waitForStatus(beta, b.json.data?.videoNo ?? '', 30_000)).status).toBe('PARSE');
    // alpha-1 was already running when beta's upload came; beta's video goes next, not after alpha's whole backlog.
    expect(analyzed).toEqual(['alpha-1.mp4', 'beta-1.mp4', 'alpha-2.mp4', 'alpha-3.mp4', 'alpha-4.mp4', 'alpha-5.mp4']);
  });
});

describe('an index job has a time limit', () => {
  it('fails with the limit in its reason once it runs past a multiple of the video length plus the floor', async () => {
    const before = await balance();
    const started = Date.now();
    const up = await beta.upload<{ videoNo: string }>(
      fixturePath('phoneH264Mp4'),
      {},
      { filename: 'hang-forever.mp4' },
    );
    const meta = await waitForStatus(beta, up.json.data?.videoNo ?? '', 30_000);
    expect(meta.status).toBe('FAIL');
    const limit = LIMIT.timeLimitPerVideoSecond * (meta.duration as number) + LIMIT.timeLimitFloorSeconds;
    expect(meta.fail_reason).toBe(
      `indexing stopped: it ran past its time limit of ${Math.round(limit * 10) / 10} s (0.5 x the video's ${Math.round((meta.duration as number) * 10) / 10} s + 1 s)`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(limit * 1000);
    expect(Date.now() - started).toBeLessThan(limit * 1000 + 10_000);
    // Tried once: another attempt would spend the same time again. The charge stays (docs/api.md).
    expect(analyzed.filter((n) => n === 'hang-forever.mp4')).toHaveLength(1);
    expect(before - (await balance())).toBe(indexingPrice(meta.duration as number));
  });
});
