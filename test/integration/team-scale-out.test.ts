import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ClipItem, UploadedVideo } from '../../src/shared/api-types';
import { DRAWN_TEXT, fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { skipPostgresTests } from '../helpers/postgres';
import { startTeamCluster, type TeamCluster } from '../helpers/team-cluster';

/** A 2 s clip with drawn text: small to upload, quick to index, and found by a word of its text. */
const CLIP = fixturePath('drawnTextMp4');
const SEARCH_PER_SECOND = 5;
/** 20 videos of the burst below plus this many more fit the indexing queue. */
const CAP_ROOM = 4;
const QUEUE_CAP = 20 + CAP_ROOM;

const countRow = z.object({ n: z.number() });
const jobRow = z.object({ state: z.string(), attempts: z.number() });

// PostgreSQL's binaries missing: skipped, with the reason printed by test/helpers/postgres.ts (never under CI).
describe.skipIf(skipPostgresTests)('team server: 2 API replicas and 2 workers on one PostgreSQL and one S3', () => {
  let cluster: TeamCluster;
  /** The same account through replica A and through replica B. */
  let a: ApiClient;
  let b: ApiClient;
  let callbackServer: Server;
  let callbackUrl: string;
  const callbacks: { videoNo: string; status: string }[] = [];
  let firstVideo: string;
  /** The ledger amount of one upload of CLIP (negative: a charge). */
  let price: number;

  beforeAll(async () => {
    callbackServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        callbacks.push(z.object({ videoNo: z.string(), status: z.string() }).parse(JSON.parse(body)));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => callbackServer.listen(0, '127.0.0.1', () => r()));
    callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/done`;
    cluster = await startTeamCluster({
      apis: 2,
      workers: 2,
      credits: 100,
      config: {
        // A dead worker's job is taken by the other 2 s after its last renewal.
        jobs: { leaseMs: 2000, renewMs: 500, pollMs: 100 },
        limits: { searchPerSecond: SEARCH_PER_SECOND, indexQueueCap: QUEUE_CAP },
        callbacks: { baseDelayMs: 200 },
      },
    });
    const [replicaA, replicaB] = cluster.apis;
    a = apiClient(replicaA!.baseUrl, cluster.key);
    b = apiClient(replicaB!.baseUrl, cluster.key);
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
    callbackServer?.close();
  });

  const balance = async (): Promise<number> =>
    (await cluster.rows(countRow, "SELECT balance_micro AS n FROM accounts WHERE name = 'test'"))[0]!.n;

  const segmentsOf = async (videoNo: string): Promise<number> =>
    (
      await cluster.rows(
        countRow,
        'SELECT COUNT(*) AS n FROM segments s JOIN videos v ON v.id = s.video_id WHERE v.video_no = ?',
        videoNo,
      )
    )[0]!.n;

  it('takes an upload on replica A, then answers its status, search and download on replica B', async () => {
    const up = await a.upload<UploadedVideo>(CLIP);
    expect(up.json.code).toBe('0000');
    firstVideo = up.json.data!.videoNo;
    expect((await waitForStatus(b, firstVideo, 60_000)).status).toBe('PARSE');
    const found = await b.post<ClipItem[]>('/search', { search_param: DRAWN_TEXT.split(' ')[0]!.toLowerCase() });
    expect(found.json.data!.map((h) => h.videoNo)).toContain(firstVideo);
    const download = await b.raw('POST', '/download', { video_no: firstVideo });
    expect(download.status).toBe(200);
    const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
    expect(sha(download.body)).toBe(sha(await readFile(CLIP)));
    expect(await segmentsOf(firstVideo)).toBeGreaterThan(0);
  }, 90_000);

  it('finishes the job of a worker SIGKILLed mid-index on the other worker, indexing the video once', async () => {
    const up = await a.upload<UploadedVideo>(CLIP, { callback: callbackUrl });
    const videoNo = up.json.data!.videoNo;
    let holder = await cluster.jobHolder('index', videoNo);
    for (const end = Date.now() + 20_000; !holder && Date.now() < end; await sleep(20)) {
      holder = await cluster.jobHolder('index', videoNo);
    }
    expect(holder, 'no worker took the index job').toBeDefined();
    await holder!.kill();
    expect((await waitForStatus(b, videoNo, 60_000)).status).toBe('PARSE');
    const [job] = await cluster.rows(
      jobRow,
      "SELECT state, attempts FROM jobs WHERE kind = 'index' AND ref = ?",
      videoNo,
    );
    expect(job).toEqual({ state: 'done', attempts: 2 });
    // One set of segments: as many as the same clip indexed undisturbed.
    expect(await segmentsOf(videoNo)).toBe(await segmentsOf(firstVideo));
    await expect.poll(() => callbacks.filter((c) => c.videoNo === videoNo), { timeout: 10_000 }).toHaveLength(1);
    await sleep(1000); // a duplicate (a second commit of the index queues a second callback) would be here by now
    expect(callbacks.filter((c) => c.videoNo === videoNo)).toEqual([{ videoNo, status: 'PARSE' }]);
  }, 120_000);

  it('holds the search rate limit across replicas: of 2N searches split over A and B, exactly N pass', async () => {
    const body = { search_param: 'harbour' };
    // The window is one second: the count is exact only for a burst that lands within it, so a burst slowed past it
    // by a loaded machine is tried again.
    for (let attempt = 1; ; attempt++) {
      await sleep(1100); // earlier searches out of the window
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 2 * SEARCH_PER_SECOND }, (_, i) => (i % 2 === 0 ? a : b).post('/search', body)),
      );
      const elapsed = Date.now() - started;
      if (elapsed >= 1000 && attempt < 3) continue;
      expect(elapsed, `the burst took ${elapsed} ms`).toBeLessThan(1000);
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(SEARCH_PER_SECOND);
      expect(statuses.filter((s) => s === 429)).toHaveLength(SEARCH_PER_SECOND);
      return;
    }
  }, 20_000);

  it('charges 20 concurrent uploads split across both replicas exactly 20 times', async () => {
    // Workers stopped from here on: the videos stay queued (UNPARSE), which the queue cap below counts.
    await Promise.all(cluster.workers.map((w) => w.stop()));
    const before = await balance();
    const ledgerBefore = (await cluster.rows(countRow, 'SELECT COUNT(*) AS n FROM ledger'))[0]!.n;
    const uploads = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).upload<UploadedVideo>(CLIP)),
    );
    expect(uploads.map((u) => u.json.code)).toEqual(Array(20).fill('0000'));
    const videoNos = uploads.map((u) => u.json.data!.videoNo);
    expect(new Set(videoNos).size).toBe(20);
    const charges = await cluster.rows(
      z.object({ amount_micro: z.number(), ref: z.string() }),
      'SELECT amount_micro, ref FROM ledger ORDER BY id OFFSET ?',
      ledgerBefore,
    );
    expect(charges.map((c) => c.ref).sort()).toEqual([...videoNos].sort());
    price = charges[0]!.amount_micro;
    expect(price).toBeLessThan(0);
    expect(charges.every((c) => c.amount_micro === price)).toBe(true);
    expect(await balance()).toBe(before + 20 * price);
    const listed = await b.post<{ total_count: number }>('/list_videos', { status: 'UNPARSE', size: 1 });
    expect(listed.json.data!.total_count).toBe(20);
  }, 60_000);

  it('holds the indexing-queue cap across replicas: concurrent uploads at the cap, exactly the room left passes', async () => {
    const before = await balance();
    const uploads = await Promise.all(
      Array.from({ length: 2 * CAP_ROOM }, (_, i) => (i % 2 === 0 ? a : b).upload<UploadedVideo>(CLIP)),
    );
    const statuses = uploads.map((u) => u.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CAP_ROOM);
    for (const refused of uploads.filter((u) => u.status === 429)) {
      expect(refused.json.msg).toMatch(/indexing queue is full/);
    }
    const queued = await cluster.rows(countRow, "SELECT COUNT(*) AS n FROM videos WHERE status = 'UNPARSE'");
    expect(queued[0]!.n).toBe(QUEUE_CAP);
    // Those refused where the row is inserted were charged before and refunded: the balance paid for CAP_ROOM.
    expect(await balance()).toBe(before + CAP_ROOM * price);
  }, 60_000);
});
