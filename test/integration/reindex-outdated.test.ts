import { execFile } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REINDEX_JOB } from '../../src/server/library/outdated-videos';
import { countOf } from '../../src/server/storage/rows';
import { parseConfig } from '../../src/server/config';
import type { AnalyzeOptions, AnalyzeResult } from '../../src/server/indexer/analyze-video';
import { INDEX_RULES_VERSION } from '../../src/server/indexer/index-rules';
import { FACE_API_MODEL } from '../../src/server/indexer/analyzers/face-match';
import type { Face } from '../../src/server/indexer/types';
import { startService, type RunningService } from '../../src/server/service';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { clipAt, lavfi, type ClipRecipe } from '../fixtures/generated-clips';
import { fixturePath } from '../fixtures/media';
import { TEST_PATTERN_JPEG } from '../fixtures/test-clips';
import { oneShotAnalysis } from '../helpers/one-shot-analysis';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { datalakeClient, waitForOperation, type Operation } from '../helpers/datalake';
import { startHitServer, type HitServer } from '../helpers/hit-server';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../helpers/postgres';
import { cliSync, SERVICE_CLI } from '../helpers/service';
import { tempDir } from '../helpers/temp';

// The real service in this process (queue, job handlers, persisting, search and billing the real ones) on SQLite and
// on PostgreSQL, with the indexer's analysis narrowed to a stand-in whose labels follow `labelNow`: what the rules of
// the build that indexes would find. A re-index is then told from the first index by the label it writes.
const ENGINES = skipPostgresTests ? (['sqlite'] as const) : (['sqlite', 'postgres'] as const);

const stampRow = z.object({ index_rules: z.string().nullable(), status: z.string() });
const videoRow = z.object({ id: z.number().int(), bucket: z.string(), blob: z.string().nullable() });
/** A keyframe that is not the test pattern. */
const COLOUR_BARS_JPEG: ClipRecipe = {
  name: 'colour-bars-160x120',
  inputs: lavfi('smptebars=size=160x120'),
  args: ['-frames:v', '1'],
  ext: '.jpg',
};
const jobRow = z.object({ state: z.string(), last_error: z.string().nullable() });

/** A face-api face whose descriptor is `value` throughout: 0.05 and -0.05 are two people, 0.05 and 0.051 one. */
function face(value: number): Face {
  return { descriptor: new Array<number>(128).fill(value), model: FACE_API_MODEL, box: [10, 10, 40, 40], score: 0.9 };
}

/** Waits for `gate`, or rejects when the job is stopped. */
function held(gate: Promise<void>, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    void gate.then(resolve);
    signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

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
  let labelNow = 'lighthouse';
  /** The faces the stand-in analysis finds in its one shot. */
  let facesNow: Face[] = [];
  let datalakeKey: string;
  const analyzed: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  let openGate: () => void = () => {};
  /** The next analysis waits at `gate` (then this is false again). */
  let holdNext = false;
  let callbacks: HitServer;
  /** The service CLI's arguments naming this service's database. */
  let where: string[] = [];

  async function standInAnalysis(opts: AnalyzeOptions): Promise<AnalyzeResult> {
    analyzed.push(labelNow);
    if (holdNext) {
      holdNext = false;
      await held(gate, opts.signal);
    }
    return oneShotAnalysis(opts.workDir, keyframe, {
      labels: [{ label: labelNow, score: 0.9, source: 'objects:stand-in' }],
      faces: facesNow,
    });
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

  /** Video numbers a search for `word` finds. */
  const found = async (word: string): Promise<string[]> =>
    (await api.post<{ videoNo: string }[]>('/search', { search_param: word })).json.data!.map((h) => h.videoNo);
  /** Ledger rows other than searches (each search is charged). */
  const ledgerRows = async () => countOf(await sql().get("SELECT COUNT(*) AS n FROM ledger WHERE reason <> 'search'"));
  const reindexJob = async (videoNo: string) =>
    jobRow.parse(
      await sql().get('SELECT state, last_error FROM jobs WHERE kind = ? AND ref LIKE ?', REINDEX_JOB, `${videoNo}@%`),
    );
  /** As a library indexed by an older build: no rules stamp. */
  const makeOutdated = (videoNo: string) =>
    sql().run('UPDATE videos SET index_rules = NULL WHERE video_no = ?', videoNo);

  async function uploadIndexed(label: string): Promise<string> {
    labelNow = label;
    const up = await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'), {
      callback: `${callbacks.url}/done`,
    });
    const videoNo = up.json.data!.videoNo;
    expect((await waitForStatus(api, videoNo, 60_000)).status).toBe('PARSE');
    return videoNo;
  }

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-reindex-'));
    dataDir = join(dir, 'data');
    where = ['--data', dataDir];
    if (engine === 'postgres') {
      pg = await startPostgres();
      databaseUrl = await pg.createDatabase();
      const configFile = join(dir, 'config.json');
      await writeFile(configFile, JSON.stringify({ database: { url: databaseUrl } }));
      where.push('--config', configFile);
    }
    key = cliSync(['key', 'create', ...where, '--account', 'editor', '--interface', 'library', '--credits', '100']);
    datalakeKey = cliSync(['key', 'create', ...where, '--account', 'editor', '--interface', 'datalake']);
    keyframe = join(dir, 'keyframe.jpg');
    await clipAt(TEST_PATTERN_JPEG, keyframe);
    callbacks = await startHitServer('127.0.0.1');
    await start();
  }, 120_000);

  afterAll(async () => {
    openGate();
    await service?.close();
    await callbacks?.close();
    await pg?.stop();
    await cleanup?.();
  });

  it('stamps an indexed video with the rules version it was indexed under', async () => {
    const videoNo = await uploadIndexed('lighthouse');
    expect(await stampOf(videoNo)).toEqual({ index_rules: INDEX_RULES_VERSION, status: 'PARSE' });
  }, 90_000);

  it('re-indexes an outdated video after a restart: searchable throughout, not charged, no second callback', async () => {
    const videoNo = await uploadIndexed('lighthouse');
    await expect.poll(() => callbacks.hits.filter((h) => h === '/done').length).toBe(2); // this video's and the first's
    await makeOutdated(videoNo);
    const charged = await ledgerRows();
    const keyframeBefore = z
      .object({ keyframe_blob: z.string() })
      .parse(
        await sql().get(
          'SELECT s.keyframe_blob FROM segments s JOIN videos v ON v.id = s.video_id WHERE v.video_no = ?',
          videoNo,
        ),
      );
    // The new build's rules find a bicycle where the old ones said lighthouse; its analysis waits at the gate.
    labelNow = 'bicycle';
    gate = new Promise((resolve) => (openGate = resolve));
    holdNext = true;
    await start();
    await expect.poll(() => analyzed.at(-1) === 'bicycle' && analyzed.length, { timeout: 20_000 }).toBeTruthy();
    // During the re-index: the old index answers, the video is PARSE.
    expect(await found('lighthouse')).toContain(videoNo);
    expect(await stampOf(videoNo)).toEqual({ index_rules: null, status: 'PARSE' });
    openGate();
    await expect.poll(async () => (await stampOf(videoNo)).index_rules, { timeout: 20_000 }).toBe(INDEX_RULES_VERSION);
    expect(await stampOf(videoNo)).toEqual({ index_rules: INDEX_RULES_VERSION, status: 'PARSE' });
    expect(await found('bicycle')).toContain(videoNo);
    expect(await found('lighthouse')).not.toContain(videoNo);
    // The index commits before the queue marks its job done.
    await expect.poll(() => reindexJob(videoNo)).toEqual({ state: 'done', last_error: null });
    // The first video was current: only this one was analyzed again.
    expect(analyzed.filter((l) => l === 'bicycle')).toHaveLength(1);
    expect(await ledgerRows()).toBe(charged);
    // The old keyframe is gone, the new one (its own name) is stored.
    const row = videoRow.parse(await sql().get('SELECT id, bucket, blob FROM videos WHERE video_no = ?', videoNo));
    const keyframeAfter = z
      .object({ keyframe_blob: z.string() })
      .parse(await sql().get('SELECT keyframe_blob FROM segments WHERE video_id = ?', row.id));
    expect(keyframeAfter.keyframe_blob).not.toBe(keyframeBefore.keyframe_blob);
    expect(await service!.ctx.blobs.size(row.bucket, keyframeAfter.keyframe_blob)).toBeGreaterThan(0);
    expect(await service!.ctx.blobs.size(row.bucket, keyframeBefore.keyframe_blob)).toBeNull();
    // No second callback: still one per upload.
    await service!.ctx.jobs.waitForIdle();
    expect(callbacks.hits.filter((h) => h === '/done')).toHaveLength(2);
  }, 90_000);

  it('indexes a new upload at once while a re-index runs: the re-index is given back, uncounted, and runs after', async () => {
    const outdated = await uploadIndexed('orchard');
    await makeOutdated(outdated);
    labelNow = 'kayak';
    gate = new Promise((resolve) => (openGate = resolve)); // never opened: the held re-index can only end by yielding
    holdNext = true;
    await start();
    await expect.poll(() => analyzed.at(-1), { timeout: 20_000 }).toBe('kayak');
    labelNow = 'canoe';
    const fresh = (await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'))).json.data!.videoNo;
    expect((await waitForStatus(api, fresh, 20_000)).status).toBe('PARSE');
    await expect.poll(async () => (await stampOf(outdated)).index_rules, { timeout: 20_000 }).toBe(INDEX_RULES_VERSION);
    expect(await found('canoe')).toEqual(expect.arrayContaining([fresh, outdated]));
    expect(await found('orchard')).not.toContain(outdated);
    const attempts = z
      .object({ attempts: z.number().int() })
      .parse(await sql().get('SELECT attempts FROM jobs WHERE kind = ? AND ref LIKE ?', REINDEX_JOB, `${outdated}@%`));
    expect(attempts.attempts).toBe(1);
  }, 90_000);

  it('carries the semantic vectors of a keyframe the re-index stores again, and only of such a keyframe', async () => {
    const segmentOf = async (videoNo: string) =>
      z
        .object({ id: z.number().int(), keyframe_blob: z.string() })
        .parse(
          await sql().get(
            'SELECT s.id, s.keyframe_blob FROM segments s JOIN videos v ON v.id = s.video_id WHERE v.video_no = ?',
            videoNo,
          ),
        );
    const vectorsOf = async (segmentId: number) =>
      z
        .array(z.object({ model: z.string(), vector: z.instanceof(Uint8Array) }))
        .parse(
          await sql().all(
            'SELECT model, vector FROM segment_embeddings WHERE segment_id = ? ORDER BY model',
            segmentId,
          ),
        )
        .map((r) => ({ model: r.model, vector: [...new Float32Array(new Uint8Array(r.vector).buffer)] }));
    const vector = new Float32Array([0.6, 0.8, 0]);
    /** What the semantic model would store for the video's keyframe (no model runs here: a vector can only be carried). */
    const embed = async (videoNo: string) => {
      const segment = await segmentOf(videoNo);
      for (const model of ['clip-a', 'clip-b'])
        await sql().run(
          'INSERT INTO segment_embeddings (segment_id, model, vector) VALUES (?, ?, ?)',
          segment.id,
          model,
          new Uint8Array(vector.buffer),
        );
      return segment;
    };
    const reindex = async (videoNo: string, label: string) => {
      await makeOutdated(videoNo);
      labelNow = label;
      await start();
      await expect
        .poll(async () => (await stampOf(videoNo)).index_rules, { timeout: 20_000 })
        .toBe(INDEX_RULES_VERSION);
      expect(await found(label)).toContain(videoNo);
      return segmentOf(videoNo);
    };

    // Re-indexed with the same keyframe: the new segment has both models' vectors.
    const same = await uploadIndexed('quarry');
    const sameBefore = await embed(same);
    const sameAfter = await reindex(same, 'glacier');
    expect(sameAfter.keyframe_blob).not.toBe(sameBefore.keyframe_blob);
    expect(await vectorsOf(sameAfter.id)).toEqual([
      { model: 'clip-a', vector: [...vector] },
      { model: 'clip-b', vector: [...vector] },
    ]);

    // Re-indexed with another keyframe: nothing carried, the segment waits for the model as any new keyframe does.
    const other = await uploadIndexed('scree');
    const otherBefore = await embed(other);
    const testPattern = keyframe;
    keyframe = join(dir, 'bars.jpg');
    await clipAt(COLOUR_BARS_JPEG, keyframe);
    try {
      const otherAfter = await reindex(other, 'moraine');
      expect(otherAfter.keyframe_blob).not.toBe(otherBefore.keyframe_blob);
      expect(await vectorsOf(otherAfter.id)).toEqual([]);
    } finally {
      keyframe = testPattern;
    }
  }, 90_000);

  it('derives the face entities of a datalake video again from the faces its re-index found', async () => {
    const dl = datalakeClient(service!.url, datalakeKey);
    const collection = (
      await dl.post<{ collection_id: string }>('/collections', { name: 'faces', face_recognition: true })
    ).json.collection_id;
    // The old rules saw the same person twice; the new ones see two people.
    facesNow = [face(0.05), face(0.051)];
    labelNow = 'courtyard';
    const form = new FormData();
    form.append('json', JSON.stringify({ collection_id: collection }));
    form.append('file', await openAsBlob(fixturePath('phoneH264Mp4'), { type: 'video/mp4' }), 'phone.mp4');
    const ingest = (await dl.call<Operation>('POST', '/videos', form)).json;
    expect((await waitForOperation(dl, ingest.operation, 60_000)).error).toBeNull();
    // A restart serves on another port: a client for the service running now.
    const entities = async () =>
      (
        await datalakeClient(service!.url, datalakeKey).get<{ faces: { faces: number }[] }>(
          `/videos/${ingest.resource}`,
        )
      ).json.faces.map((e) => e.faces);
    expect(await entities()).toEqual([2]);
    const { video_no: videoNo } = z
      .object({ video_no: z.string() })
      .parse(
        await sql().get(
          'SELECT v.video_no FROM videos v JOIN dl_videos d ON d.library_video_id = v.id WHERE d.id = ?',
          ingest.resource,
        ),
      );
    await makeOutdated(videoNo);
    facesNow = [face(0.05), face(-0.05)];
    labelNow = 'cloister';
    try {
      await start();
      await expect.poll(entities, { timeout: 20_000 }).toEqual([1, 1]);
    } finally {
      facesNow = [];
    }
    expect(await stampOf(videoNo)).toEqual({ index_rules: INDEX_RULES_VERSION, status: 'PARSE' });
  }, 90_000);

  it('leaves the old index searchable and the video PARSE when its re-index fails (original gone)', async () => {
    const videoNo = await uploadIndexed('harbour');
    await makeOutdated(videoNo);
    const row = videoRow.parse(await sql().get('SELECT id, bucket, blob FROM videos WHERE video_no = ?', videoNo));
    await service!.ctx.blobs.delete(row.bucket, row.blob!);
    labelNow = 'tractor';
    await start();
    await expect
      .poll(async () => (await reindexJob(videoNo).catch(() => undefined))?.state, { timeout: 20_000 })
      .toBe('failed');
    expect((await reindexJob(videoNo)).last_error).toBe('the stored original is missing');
    expect(await stampOf(videoNo)).toEqual({ index_rules: null, status: 'PARSE' });
    expect(await found('harbour')).toContain(videoNo);
    // Not queued again under the same rules, after another restart either.
    await start();
    await service!.ctx.jobs.waitForIdle();
    expect(countOf(await sql().get('SELECT COUNT(*) AS n FROM jobs WHERE ref LIKE ?', `${videoNo}@%`))).toBe(1);
  }, 90_000);

  it('with indexer.reindexOutdated off, re-indexes nothing', async () => {
    const videoNo = await uploadIndexed('meadow');
    await makeOutdated(videoNo);
    labelNow = 'tractor';
    const analyses = analyzed.length;
    await start({ reindexOutdated: false });
    // Give the queue a few polls (50 ms each) to show it would take nothing.
    await new Promise((r) => setTimeout(r, 500));
    await service!.ctx.jobs.waitForIdle();
    expect(analyzed).toHaveLength(analyses);
    expect(await stampOf(videoNo)).toEqual({ index_rules: null, status: 'PARSE' });
    expect(await found('meadow')).toContain(videoNo);
  }, 90_000);

  it('reindex-outdated counts the outdated videos, and with --queue has the running service re-index them', async () => {
    // Run beside the service started with the option off (the test before): the meadow video waits, the harbour one failed.
    const cli = async (...args: string[]) =>
      (await promisify(execFile)(process.execPath, [SERVICE_CLI, 'reindex-outdated', ...where, ...args])).stdout;
    const report = await cli();
    expect(report).toContain(`index rules: ${INDEX_RULES_VERSION}\n`);
    expect(report).toContain('outdated videos: 2\n');
    expect(report).toContain('re-index failed under these rules (old index kept): 1\n');
    expect(report).toContain('not queued yet: 1\n');
    expect(report).not.toContain('queued: ');
    const [meadow] = await found('meadow');
    expect(await cli('--queue')).toContain('\nqueued: 1 ');
    await expect.poll(async () => (await stampOf(meadow!)).index_rules, { timeout: 20_000 }).toBe(INDEX_RULES_VERSION);
    expect(await found('tractor')).toContain(meadow!);
    // Queued again: nothing new (one job per video and rules version).
    expect(await cli('--queue')).toContain('\nqueued: 0 ');
    expect(await cli()).toContain('outdated videos: 1\n');
  }, 90_000);
});
