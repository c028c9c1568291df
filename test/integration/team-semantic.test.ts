import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clipAt } from '../fixtures/generated-clips';
import { colourSeconds } from '../fixtures/test-clips';
import type { ClipItem, UploadedVideo } from '../../src/shared/api-types';
import { safeJson } from '../../src/server/semantic/model-cache';
import { MODELS_BUCKET } from '../../src/server/semantic/shared-model-store';
import type { SemanticState } from '../../src/shared/semantic-state';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { startModelHub, type ModelHub } from '../helpers/model-hub';
import { skipPostgresTests } from '../helpers/postgres';
import { startTeamCluster, type TeamCluster, type TeamProcess } from '../helpers/team-cluster';
import { tempDir } from '../helpers/temp';
import { tinyClipFiles } from '../helpers/tiny-clip/tiny-clip';

const REPO = 'tests/tiny-clip';

/** A clip of one colour per second: the indexer cuts it into segments of a few colours, each with its keyframe. */
function colourClip(file: string, colours: string[]): Promise<string> {
  return clipAt(colourSeconds(colours), file);
}

const countRow = z.object({ n: z.number() });
const embeddedLine = z.object({ msg: z.literal('keyframes embedded'), embedded: z.number().int() });

/** The keyframes a process says it embedded: the sum of its `keyframes embedded` log lines (one per pass). */
function embeddedBy(process: TeamProcess): number {
  let n = 0;
  for (const line of process.stderr().split('\n')) {
    const parsed = embeddedLine.safeParse(safeJson(line));
    if (parsed.success) n += parsed.data.embedded;
  }
  return n;
}

const downloadedLine = z.object({ msg: z.literal('semantic model downloaded'), from: z.string() });

/** Where a process says it got the model from: "host" or "team store" (null when it has not got it). */
function downloadedFrom(process: TeamProcess): string | null {
  for (const line of process.stderr().split('\n')) {
    const parsed = downloadedLine.safeParse(safeJson(line));
    if (parsed.success) return parsed.data.from;
  }
  return null;
}

// PostgreSQL's binaries missing: skipped, with the reason printed by test/helpers/postgres.ts (never under CI).
describe.skipIf(skipPostgresTests)('team server: the semantic model on 1 API replica and 2 workers', () => {
  let hub: ModelHub;
  let cluster: TeamCluster;
  let api: ApiClient;
  let cleanup: () => Promise<void>;
  let dir: string;
  const videos = { red: '', cuts: '' };

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-team-semantic-'));
    hub = await startModelHub(REPO, tinyClipFiles());
    cluster = await startTeamCluster({
      apis: 1,
      workers: 2,
      config: {
        semantic: { host: hub.url, model: REPO, similarityFloor: 0, similarityCeiling: 0.6, pollMs: 200 },
        jobs: { pollMs: 100 },
      },
      // The embedding counts are info lines.
      env: { REELSYNC_LOG: 'info' },
    });
    api = apiClient(cluster.apis[0]!.baseUrl, cluster.key);
    // Indexed before the model exists: the workers embed these keyframes once it comes (the backfill).
    const red = await api.upload<UploadedVideo>(await colourClip(join(dir, 'red.mp4'), ['red', 'red']));
    videos.red = red.json.data!.videoNo;
    const cutColours = ['lime', 'cyan', 'yellow', 'white', 'navy', 'gray', 'purple', 'olive', 'teal', 'maroon'];
    const cuts = await api.upload<UploadedVideo>(await colourClip(join(dir, 'cuts.mp4'), cutColours));
    videos.cuts = cuts.json.data!.videoNo;
    for (const no of Object.values(videos)) expect((await waitForStatus(api, no, 180_000)).status).toBe('PARSE');
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    await hub?.close();
    await cleanup?.();
  });

  const segments = async (): Promise<number> =>
    (await cluster.rows(countRow, 'SELECT COUNT(*) AS n FROM segments WHERE keyframe_blob IS NOT NULL'))[0]!.n;

  /**
   * The keyframes each process logged it embedded, once the workers' counts reach `expected` and then stay as they
   * are for a few of their looks (a pass logs its count after its last batch is stored): a keyframe embedded twice
   * would count twice.
   */
  async function embedCounts(expected: number): Promise<Record<string, number>> {
    const processes = [...cluster.apis, ...cluster.workers];
    const counts = () => Object.fromEntries(processes.map((p) => [p.name, embeddedBy(p)]));
    const workersSum = () => cluster.workers.reduce((n, p) => n + embeddedBy(p), 0);
    const end = Date.now() + 20_000;
    while (workersSum() < expected && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1_000));
    return counts();
  }

  /** The API replica embedded none; the workers' counts add up to the keyframes: none was embedded twice. */
  function expectOnceByWorkers(counts: Record<string, number>, keyframes: number): void {
    const workers = cluster.workers.reduce((n, p) => n + counts[p.name]!, 0);
    expect({ api: counts['api-1'], workers }, JSON.stringify(counts)).toEqual({ api: 0, workers: keyframes });
  }

  async function embeddedAll(expected: number): Promise<void> {
    const end = Date.now() + 60_000;
    for (;;) {
      const res = await api.get<SemanticState>('/semantic');
      const s = res.json.data!;
      if (s.state === 'ready' && s.pendingSegments === 0 && s.embeddedSegments === expected) return;
      if (s.state === 'failed' || Date.now() > end) throw new Error(`semantic state ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('every keyframe is embedded exactly once, by the workers alone, after a download asked for on the API replica', async () => {
    const keyframes = await segments();
    expect(keyframes).toBeGreaterThanOrEqual(6);
    expect((await api.post<SemanticState>('/semantic/download', {})).json.data?.state).toBe('downloading');
    await embeddedAll(keyframes);
    expectOnceByWorkers(await embedCounts(keyframes), keyframes);
    // Each process has the model in its own cache (the workers learned of the request from the database), but the
    // host served it once: one process fetched it, the others copied it from the team's S3.
    const processes = [...cluster.apis, ...cluster.workers];
    await expect.poll(() => processes.every((p) => downloadedFrom(p) !== null), { timeout: 10_000 }).toBe(true);
    const from = processes.map((p) => downloadedFrom(p));
    expect(from.sort(), JSON.stringify(from)).toEqual(['host', 'team store', 'team store']);
    const gets = hub.requests.filter((r) => r.method === 'GET').map((r) => r.path);
    expect(gets.length).toBeGreaterThanOrEqual(tinyClipFiles().size);
    expect(new Set(gets).size, gets.join('\n')).toBe(gets.length);
    expect(await cluster.s3.keys(`${MODELS_BUCKET}/${REPO}/`)).toContain(
      `${MODELS_BUCKET}/${REPO}/main/q8/manifest.json`,
    );
    expect(await cluster.rows(countRow, 'SELECT COUNT(*) AS n FROM segment_embed_claims')).toEqual([{ n: 0 }]);
  }, 120_000);

  it('search by meaning works through the API replica', async () => {
    const search = async (search_param: string): Promise<ClipItem[]> => {
      const res = await api.post<ClipItem[]>('/search', { search_param, top_k: 10 });
      expect(res.status).toBe(200);
      return res.json.data!;
    };
    // "tomato" is a word only the model links to a red picture.
    const tomato = await search('tomato');
    expect(tomato[0]?.videoNo).toBe(videos.red);
    expect(tomato[0]?.matched).toContain('looks like: tomato');
  });

  it('a clip indexed once the model is ready is embedded once too', async () => {
    const before = await segments();
    const up = await api.upload<UploadedVideo>(await colourClip(join(dir, 'blue.mp4'), ['blue', 'blue']));
    expect((await waitForStatus(api, up.json.data!.videoNo, 180_000)).status).toBe('PARSE');
    const keyframes = await segments();
    expect(keyframes).toBeGreaterThan(before);
    await embeddedAll(keyframes);
    expectOnceByWorkers(await embedCounts(keyframes), keyframes);
  }, 240_000);

  it("a worker's claims that lapse (it died holding them) are taken over by another worker", async () => {
    const keyframes = await segments();
    const before = await embedCounts(keyframes);
    const idRow = z.object({ segment_id: z.number() });
    // A worker that died mid-batch: its claims on the red clip's keyframes, which have no vector yet.
    const claimed = await cluster.rows(
      idRow,
      `INSERT INTO segment_embed_claims (model, segment_id, claimed_by, claim_until)
       SELECT ?, s.id, 'dead-worker', ? FROM segments s JOIN videos v ON v.id = s.video_id WHERE v.video_no = ?
       RETURNING segment_id`,
      REPO,
      Date.now() + 4_000,
      videos.red,
    );
    const ids = claimed.map((r) => r.segment_id);
    expect(ids.length).toBeGreaterThan(0);
    const placeholders = ids.map(() => '?').join(',');
    await cluster.rows(
      idRow,
      `DELETE FROM segment_embeddings WHERE segment_id IN (${placeholders}) RETURNING segment_id`,
      ...ids,
    );
    // Live claims: the workers look every 200 ms and leave these keyframes alone.
    await new Promise((r) => setTimeout(r, 1_000));
    const waiting = (await api.get<SemanticState>('/semantic')).json.data!;
    expect(waiting.state === 'ready' && waiting.pendingSegments).toBe(ids.length);
    // Once the claims lapse a live worker takes them over, embeds those keyframes once, and gives the claims back.
    await embeddedAll(keyframes);
    const after = await embedCounts(keyframes + ids.length);
    const workers = (counts: Record<string, number>) => cluster.workers.reduce((n, p) => n + counts[p.name]!, 0);
    expect(workers(after) - workers(before)).toBe(ids.length);
    expect(after['api-1']).toBe(0);
    expect(await cluster.rows(countRow, 'SELECT COUNT(*) AS n FROM segment_embed_claims')).toEqual([{ n: 0 }]);
  });
});
