import { openAsBlob } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FormData } from 'undici';
import { FIXTURES, fixturePath } from '../fixtures/media';
import {
  datalakeClient,
  waitForOperation,
  type DatalakeClient,
  type LocalServer,
  type Operation,
} from '../helpers/datalake';
import { useDatalakeSuite } from '../helpers/datalake-suite';
import { BLOB_BACKENDS, type TestService } from '../helpers/service';

describe.each(BLOB_BACKENDS)('on %s blobs', (backend) => {
  const suite = useDatalakeSuite(backend, { limits: { concurrentIngests: 2 } });
  let service: TestService;
  let dl: DatalakeClient;
  let media: LocalServer;
  let collection: string;
  beforeAll(() => ({ service, dl, media, collection } = suite()));
  const clip = (): string => `${media.url}/media/${FIXTURES.hevcMov.file}`;
  const ingest = (body: Record<string, unknown>) => suite().ingest(body);
  const balance = () => suite().balance();

  describe('authentication and collections', () => {
    it('wants a datalake key, raw in Authorization', async () => {
      const library = datalakeClient(service.origin, service.key);
      expect((await library.get('/videos')).json).toMatchObject({ error: { code: 'unauthenticated' } });
      expect((await datalakeClient(service.origin, '').get('/videos')).status).toBe(401);
    });

    it('creates, lists and reads collections with their flags; list limits are 1 to 100', async () => {
      const made = await dl.post('/collections', { name: 'flags', safety_detector: true, face_recognition: true });
      expect(made.status).toBe(201);
      expect(made.json).toMatchObject({
        name: 'flags',
        safety_detector: true,
        face_recognition: true,
        video_count: 0,
        state: 'active',
      });
      const got = await dl.get(`/collections/${String(made.json.collection_id)}`);
      expect(got.json).toEqual(made.json);
      const list = await dl.get<{ collections: unknown[]; next_cursor: string | null }>('/collections?limit=1');
      expect(list.json.collections).toHaveLength(1);
      const next = await dl.get<{ collections: unknown[] }>(
        `/collections?limit=1&cursor=${list.json.next_cursor ?? ''}`,
      );
      expect(next.json.collections).toHaveLength(1);
      expect(next.json.collections[0]).not.toEqual(list.json.collections[0]);
      for (const limit of [0, 101])
        expect((await dl.get(`/collections?limit=${limit}`)).json).toMatchObject({
          error: { code: 'invalid_argument' },
        });
      expect((await dl.post('/collections', { name: 'x', face: true })).status).toBe(400);
    });
  });

  describe('ingest by source_url', () => {
    it('answers 202 with an operation at once and ends done, ready and searchable', async () => {
      const before = await balance();
      const res = await ingest({ source_url: clip(), metadata: { shoot: 'harbour' } });
      expect(res.status).toBe(202);
      expect(res.json).toMatchObject({ kind: 'ingest', done: false, cancelled: false, error: null });
      expect(res.json.progress).toMatchObject({
        preprocess: expect.any(String) as unknown,
        index: 'pending',
        derive: 'pending',
      });
      const op = await waitForOperation(dl, res.json.operation);
      expect(op).toMatchObject({
        done: true,
        cancelled: false,
        error: null,
        progress: { preprocess: 'done', index: 'done', derive: 'done', percent: 100 },
      });
      const video = await dl.get(`/videos/${op.resource}`);
      expect(video.json).toMatchObject({
        video_id: op.resource,
        collection_id: collection,
        status: 'ready',
        searchable: true,
        metadata: { shoot: 'harbour' },
        operation: op.operation,
      });
      expect(video.json.duration).toBeGreaterThan(1);
      expect(await balance()).toBeLessThan(before);
      const list = await dl.get<{ videos: { video_id: string }[] }>(`/videos?collection_id=${collection}`);
      expect(list.json.videos.map((v) => v.video_id)).toContain(op.resource);
    });

    it('ends with source_unresolved for a platform page and for an unreachable link', async () => {
      for (const url of [`${media.url}/watch`, 'http://127.0.0.1:9/clip.mp4', `${media.url}/media/missing.mp4`]) {
        const res = await ingest({ source_url: url });
        expect(res.status).toBe(202);
        const op = await waitForOperation(dl, res.json.operation, 30_000);
        expect(op).toMatchObject({ done: true, cancelled: false, error: { code: 'source_unresolved' } });
        expect(op.progress.preprocess).toBe('failed');
        expect((await dl.get(`/videos/${op.resource}`)).json).toMatchObject({
          status: 'failed',
          error: { code: 'source_unresolved' },
        });
      }
    });

    it('ends with unsupported_media when the link serves something that is not a video', async () => {
      for (const url of [`${media.url}/doc.pdf`, `${media.url}/media/${FIXTURES.notVideoMp4.file}`]) {
        const op = await waitForOperation(dl, (await ingest({ source_url: url })).json.operation, 30_000);
        expect(op.error?.code).toBe('unsupported_media');
      }
    });

    it('refuses what is not an http(s) URL and unknown collections', async () => {
      expect((await ingest({ source_url: 'rtsp://127.0.0.1/live' })).json).toMatchObject({
        error: { code: 'invalid_argument' },
      });
      expect((await ingest({ source_url: clip(), fps: 31 })).status).toBe(400);
      expect((await dl.post('/videos', { collection_id: 'col_nope', source_url: clip() })).json).toMatchObject({
        error: { code: 'not_found' },
      });
    });
  });

  describe('idempotency', () => {
    it('returns the same operation for the same idempotency_key, with one ingest and one charge', async () => {
      const first = await ingest({ source_url: clip(), idempotency_key: 'job-42' });
      const op = await waitForOperation(dl, first.json.operation);
      const afterFirst = await balance();
      const again = await ingest({ source_url: clip(), idempotency_key: 'job-42' });
      expect(again.status).toBe(202);
      expect(again.json.operation).toBe(first.json.operation);
      expect(again.json.done).toBe(true);
      expect(await balance()).toBe(afterFirst);
      const videos = await dl.get<{ videos: { operation: string }[] }>('/videos?limit=100');
      expect(videos.json.videos.filter((v) => v.operation === op.operation)).toHaveLength(1);
      expect((await ingest({ source_url: `${clip()}?other`, idempotency_key: 'job-42' })).json).toMatchObject({
        error: { code: 'conflict' },
      });
      // Keys are per account: another account's identical key is a new ingest.
      const other = datalakeClient(service.origin, service.createKey('idem-other', { kind: 'datalake', credits: 5 }));
      const otherCollection = (await other.post<{ collection_id: string }>('/collections', { name: 'other' })).json
        .collection_id;
      const theirs = await other.post<Operation>('/videos', {
        collection_id: otherCollection,
        source_url: clip(),
        idempotency_key: 'job-42',
      });
      expect(theirs.status).toBe(202);
      expect(theirs.json.operation).not.toBe(first.json.operation);
      await waitForOperation(other, theirs.json.operation);
    });

    it('starts one ingest for concurrent retries of one idempotency_key, and opens one upload session', async () => {
      const racer = datalakeClient(service.origin, service.createKey('idem-race', { kind: 'datalake', credits: 5 }));
      const raceCollection = (await racer.post<{ collection_id: string }>('/collections', { name: 'race' })).json
        .collection_id;
      const retries = await Promise.all(
        Array.from({ length: 6 }, () =>
          racer.post<Operation>('/videos', {
            collection_id: raceCollection,
            source_url: clip(),
            idempotency_key: 'race-ingest',
          }),
        ),
      );
      expect(retries.map((r) => r.status)).toEqual(Array(6).fill(202));
      expect(new Set(retries.map((r) => r.json.operation)).size).toBe(1);
      const sessions = await Promise.all(
        Array.from({ length: 6 }, () =>
          racer.post<{ video_id: string }>('/videos?upload=resumable', {
            collection_id: raceCollection,
            size: 1000,
            filename: 'race.mp4',
            idempotency_key: 'race-session',
          }),
        ),
      );
      expect(sessions.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(sessions.map((r) => r.json.video_id)).size).toBe(1);
      await waitForOperation(racer, retries[0]?.json.operation ?? '');
      expect((await racer.get<{ videos: unknown[] }>('/videos?limit=100')).json.videos).toHaveLength(2);
    });
  });

  describe('ingest by multipart file', () => {
    const form = async (json: unknown, file: string, type: string, name?: string): Promise<FormData> => {
      const f = new FormData();
      f.append('json', JSON.stringify(json));
      f.append('file', await openAsBlob(file, { type }), name ?? file.split('/').pop());
      return f;
    };

    it('ingests a json part plus a file part', async () => {
      const res = await dl.call<Operation>(
        'POST',
        '/videos',
        await form({ collection_id: collection }, fixturePath('vp9Mkv'), 'video/x-matroska'),
      );
      expect(res.status).toBe(202);
      const op = await waitForOperation(dl, res.json.operation);
      expect(op.error).toBeNull();
      expect((await dl.get(`/videos/${op.resource}`)).json).toMatchObject({
        status: 'ready',
        source: { type: 'file' },
        filename: 'vp9.mkv',
      });
    });

    it('answers 415 unsupported_media for a non-video file', async () => {
      const text = await dl.call(
        'POST',
        '/videos',
        await form({ collection_id: collection }, fixturePath('notVideoMp4'), 'video/mp4'),
      );
      expect(text.status).toBe(415);
      expect(text.json).toMatchObject({ error: { code: 'unsupported_media' } });
      const typed = await dl.call(
        'POST',
        '/videos',
        await form({ collection_id: collection }, fixturePath('notVideoMp4'), 'text/plain', 'notes.txt'),
      );
      expect(typed.status).toBe(415);
    });
  });

  describe('cancel', () => {
    it('cancels before the index stage: 200, done and cancelled, nothing charged, no video left', async () => {
      const before = await balance();
      const res = await ingest({ source_url: `${media.url}/slow.mp4`, callback_url: `${media.url}/never-called` });
      await waitForOperation(dl, res.json.operation, 10_000, (op) => op.progress.preprocess === 'running');
      const cancel = await dl.post(`/operations/${res.json.operation}:cancel`);
      expect(cancel.status).toBe(200);
      expect(cancel.json).toEqual({ operation: res.json.operation, cancelled: true, done: true });
      const op = (await dl.get<Operation>(`/operations/${res.json.operation}`)).json;
      expect(op).toMatchObject({
        done: true,
        cancelled: true,
        error: null,
        progress: { preprocess: 'cancelled', index: 'cancelled', derive: 'cancelled' },
      });
      expect((await dl.get(`/videos/${op.resource}`)).status).toBe(404);
      expect(await balance()).toBe(before);
      expect(
        (await dl.get<{ deliveries: unknown[] }>(`/operations/${op.operation}/deliveries`)).json.deliveries,
      ).toEqual([]);
    });

    it('answers 409 once the index stage has started, and the ingest carries on', async () => {
      const res = await ingest({ source_url: clip() });
      const indexing = await waitForOperation(dl, res.json.operation, 60_000, (op) => op.progress.index !== 'pending');
      expect(indexing.progress).toMatchObject({ preprocess: 'done' });
      expect(indexing.progress.percent).toBeGreaterThanOrEqual(10);
      const cancel = await dl.post(`/operations/${res.json.operation}:cancel`);
      expect(cancel.status).toBe(409);
      expect(cancel.json).toMatchObject({
        operation: res.json.operation,
        cancelled: false,
        error: { code: 'conflict' },
      });
      const op = await waitForOperation(dl, res.json.operation);
      expect(op).toMatchObject({ done: true, cancelled: false, error: null });
    });

    it('answers 404 for another account’s operation', async () => {
      const other = datalakeClient(service.origin, service.createKey('mallory', { kind: 'datalake', credits: 5 }));
      const res = await ingest({ source_url: clip() });
      expect((await other.get(`/operations/${res.json.operation}`)).status).toBe(404);
      expect((await other.post(`/operations/${res.json.operation}:cancel`)).status).toBe(404);
      await waitForOperation(dl, res.json.operation);
    });
  });

  describe('concurrent-ingest cap', () => {
    it('answers 429 rate_limited with Retry-After beyond limits.concurrentIngests', async () => {
      const held = [
        await ingest({ source_url: `${media.url}/slow.mp4` }),
        await ingest({ source_url: `${media.url}/slow.mp4` }),
      ];
      for (const r of held) expect(r.status).toBe(202);
      const over = await ingest({ source_url: clip() });
      expect(over.status).toBe(429);
      expect(over.json).toMatchObject({ error: { code: 'rate_limited' } });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      for (const r of held) expect((await dl.post(`/operations/${r.json.operation}:cancel`)).status).toBe(200);
      expect((await ingest({ source_url: clip(), idempotency_key: 'after-cap' })).status).toBe(202);
    });
  });

  describe('delete', () => {
    it('answers 202 with a video_delete operation whose purge stage removes the video', async () => {
      const op = await waitForOperation(dl, (await ingest({ source_url: clip() })).json.operation);
      const del = await dl.del<Operation>(`/videos/${op.resource}`);
      expect(del.status).toBe(202);
      expect(del.json).toMatchObject({
        kind: 'video_delete',
        resource: op.resource,
        done: false,
        progress: { purge: expect.any(String) as unknown },
      });
      const done = await waitForOperation(dl, del.json.operation, 30_000);
      expect(done).toMatchObject({ done: true, error: null, progress: { purge: 'done', percent: 100 } });
      expect((await dl.get(`/videos/${op.resource}`)).status).toBe(404);
      expect((await dl.del(`/videos/${op.resource}`)).status).toBe(404);
    });
  });

  describe('search and balance', () => {
    it('searches the datalake videos with top_k up to 200 and 5 queries per second per user', async () => {
      const ok = await dl.post<{
        results: { video_id: string; collection_id: string; start: number; end: number; score: number }[];
      }>('/search', { query: 'hevc', top_k: 200 });
      expect(ok.status).toBe(200);
      // The stored name (hevc.mov) is part of every segment's index text.
      expect(ok.json.results.length).toBeGreaterThan(0);
      expect(ok.json.results[0]).toMatchObject({
        collection_id: collection,
        video_id: expect.any(String) as unknown,
        score: expect.any(Number) as unknown,
      });
      expect(ok.json.results[0]!.end).toBeGreaterThan(ok.json.results[0]!.start);
      expect((await dl.post('/search', { query: 'x', top_k: 201 })).json).toMatchObject({
        error: { code: 'invalid_argument' },
      });
      const burst = await Promise.all(
        Array.from({ length: 8 }, () => dl.post('/search', { query: 'pattern', collection_id: collection })),
      );
      const limited = burst.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(Number(limited[0]?.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('reports the live balance', async () => {
      const res = await dl.get<{ balance_micro_usd: number; balance_usd: number; currency: string }>('/usage/balance');
      expect(res.json.currency).toBe('USD');
      expect(res.json.balance_usd).toBeCloseTo(res.json.balance_micro_usd / 1e6, 6);
      expect(res.json.balance_usd).toBeLessThan(100);
    });
  });
});
