import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixturePath } from '../fixtures/media';
import {
  putChunk,
  waitForOperation,
  type DatalakeClient,
  type LocalServer,
  type Operation,
  type ResumableSession,
} from '../helpers/datalake';
import { useDatalakeSuite } from '../helpers/datalake-suite';
import { BLOB_BACKENDS } from '../helpers/service';

/** Interface B's resumable uploads and safety events, on each blob backend (ingest by link and file: datalake-ingest). */
describe.each(BLOB_BACKENDS)('on %s blobs', (backend) => {
  const suite = useDatalakeSuite(backend);
  let dl: DatalakeClient;
  let media: LocalServer;
  let collection: string;
  beforeAll(() => ({ dl, media, collection } = suite()));
  const clip = (): string => `${media.url}/media/${FIXTURES.hevcMov.file}`;
  const ingest = (body: Record<string, unknown>) => suite().ingest(body);
  const balance = () => suite().balance();

  describe('resumable upload', () => {
    it('resumes after a dropped connection from the offset the upload_url reports, then finalizes into an ingest', async () => {
      const file = await readFile(fixturePath('phoneH264Mp4'));
      const created = await dl.post<ResumableSession>('/videos?upload=resumable', {
        collection_id: collection,
        size: file.length,
        filename: 'phone.mp4',
        content_type: 'video/mp4',
        idempotency_key: 'resumable-1',
      });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({
        video_id: expect.any(String) as unknown,
        upload_url: expect.stringMatching(/^http:\/\/.+\/uploads\//) as unknown,
        chunk_size: expect.any(Number) as unknown,
        offset: 0,
      });
      const { upload_url: url } = created.json;
      expect(
        (
          await dl.post<ResumableSession>('/videos?upload=resumable', {
            collection_id: collection,
            size: file.length,
            filename: 'phone.mp4',
            idempotency_key: 'resumable-1',
          })
        ).json.video_id,
      ).toBe(created.json.video_id);

      // Send the whole file as one chunk but cut the connection after the first half has arrived.
      const half = Math.floor(file.length / 2);
      const dropped = httpRequest(url, {
        method: 'PUT',
        headers: {
          authorization: suite().key,
          'content-type': 'application/octet-stream',
          'content-length': file.length,
          'content-range': `bytes 0-${file.length - 1}/${file.length}`,
        },
      });
      dropped.on('error', () => {});
      dropped.write(file.subarray(0, half));
      await expect.poll(async () => (await dl.get<ResumableSession>(url)).json.offset, { timeout: 10_000 }).toBe(half);
      dropped.destroy();

      expect((await dl.post(`/videos/${created.json.video_id}:finalize`)).status).toBe(409);
      const wrong = await putChunk(dl, url, file.subarray(0, 10), 0, file.length);
      expect(wrong.status).toBe(409);
      const offset = (await dl.get<ResumableSession>(url)).json.offset;
      expect(offset).toBe(half);
      let rest = await putChunk(dl, url, file.subarray(offset), offset, file.length);
      for (let i = 0; rest.status === 409 && i < 20; i++) {
        await new Promise((r) => setTimeout(r, 100)); // the dropped request may still be winding down
        rest = await putChunk(dl, url, file.subarray(offset), offset, file.length);
      }
      expect(rest.json).toMatchObject({ offset: file.length, size: file.length, complete: true });

      const fin = await dl.post<Operation>(`/videos/${created.json.video_id}:finalize`);
      expect(fin.status).toBe(202);
      const op = await waitForOperation(dl, fin.json.operation);
      expect(op).toMatchObject({ done: true, error: null, resource: created.json.video_id });
      expect((await dl.get(`/videos/${created.json.video_id}`)).json).toMatchObject({
        status: 'ready',
        source: { type: 'resumable' },
        size: file.length,
      });
      expect((await dl.post<Operation>(`/videos/${created.json.video_id}:finalize`)).json.operation).toBe(op.operation);
    });

    it('answers 415 for a declared non-video type', async () => {
      const res = await dl.post('/videos?upload=resumable', {
        collection_id: collection,
        size: 10,
        filename: 'notes.txt',
        content_type: 'text/plain',
      });
      expect(res.status).toBe(415);
      expect(res.json).toMatchObject({ error: { code: 'unsupported_media' } });
    });
  });

  describe('safety events with the default threshold', () => {
    interface Events {
      events: { event_type: string }[];
      next_cursor: string | null;
      live: boolean;
    }

    it('runs the classifier over sampled frames of a safe clip and reports nothing; each call is billed', async () => {
      const safe = (
        await dl.post<{ collection_id: string }>('/collections', {
          name: 'safety',
          safety_detector: true,
          face_recognition: true,
        })
      ).json.collection_id;
      const op = await waitForOperation(
        dl,
        (
          await dl.post<Operation>('/videos', {
            collection_id: safe,
            source_url: `${media.url}/media/${FIXTURES.phoneH264Mp4.file}`,
            fps: 2,
          })
        ).json.operation,
      );
      expect(op.error).toBeNull();
      const video = await dl.get<{
        safety: { frames_classified: number; max_unsafe_score: number; events: number };
        faces: unknown[];
      }>(`/videos/${op.resource}`);
      // 3 s at 2 frames per second, each classified by nsfwjs: the scores are real and low for a test pattern.
      expect(video.json.safety.frames_classified).toBeGreaterThanOrEqual(5);
      expect(video.json.safety.max_unsafe_score).toBeGreaterThan(0);
      expect(video.json.safety.max_unsafe_score).toBeLessThan(0.7);
      expect(video.json.safety.events).toBe(0);
      expect(Array.isArray(video.json.faces)).toBe(true);
      const before = await balance();
      const events = await dl.get<Events>(`/videos/${op.resource}/events`);
      expect(events.json).toEqual({ events: [], next_cursor: null, live: false });
      expect(before - (await balance())).toBe(1000);
    });

    it('has no safety output when the collection did not enable safety_detector', async () => {
      const op = await waitForOperation(dl, (await ingest({ source_url: clip() })).json.operation);
      expect((await dl.get(`/videos/${op.resource}`)).json).toMatchObject({ safety: null, faces: null });
      expect((await dl.get<Events>(`/videos/${op.resource}/events`)).json).toEqual({
        events: [],
        next_cursor: null,
        live: false,
      });
      expect((await dl.get('/videos/VI0/events')).status).toBe(404);
    });
  });
});
