import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixturePath } from '../fixtures/media';
import {
  datalakeClient,
  startMediaServer,
  waitForOperation,
  type DatalakeClient,
  type MediaServer,
  type Operation,
} from '../helpers/datalake';
import { startLiveHls, makeHls } from '../helpers/live-hls';
import { BLOB_BACKENDS, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

interface SafetyEvent {
  event_id: string;
  event_type: string;
  start: number;
  end: number;
  score: number;
  description: string;
  detector_id: string;
  detector_version: string;
}
interface EventsPage {
  events: SafetyEvent[];
  next_cursor: string | null;
  live: boolean;
}

describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  let service: TestService;
  let dl: DatalakeClient;
  let media: MediaServer;
  let videoId: string;
  let liveAtStart: EventsPage;

  // No unsafe media exists here and none may be fetched: a threshold of 0 makes every classified frame count, so the
  // events below come from the real classifier's scores without faking a detection. 1 s windows give several events.
  const testService = useService({ backend, config: { safety: { threshold: 0, maxEventSeconds: 1 } } });
  beforeAll(async () => {
    media = await startMediaServer();
    service = testService();
    dl = datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' }));
    const collection = (
      await dl.post<{ collection_id: string }>('/collections', { name: 'safety', safety_detector: true })
    ).json.collection_id;
    const started = await dl.post<Operation>('/videos', {
      collection_id: collection,
      source_url: `${media.url}/media/${FIXTURES.phoneH264Mp4.file}`,
      fps: 2,
    });
    videoId = started.json.resource;
    liveAtStart = (await dl.get<EventsPage>(`/videos/${videoId}/events`)).json;
    const op = await waitForOperation(dl, started.json.operation);
    expect(op.error).toBeNull();
  }, 120_000);

  afterAll(async () => {
    await media?.close();
  });

  describe('safety events', () => {
    it('is live while the ingest runs', () => {
      expect(liveAtStart.live).toBe(true);
    });

    it('merges classified frames into time ranges with the detector id and version', async () => {
      const all = (await dl.get<EventsPage>(`/videos/${videoId}/events?limit=100`)).json;
      expect(all.live).toBe(false);
      expect(all.next_cursor).toBeNull();
      // 3 s sampled at 2 fps, cut into 1 s windows: [0,1) [1,2) [2,3).
      expect(all.events.map((e) => [e.start, e.end])).toEqual([
        [0, 1],
        [1, 2],
        [2, 3],
      ]);
      for (const e of all.events) {
        expect(e).toMatchObject({
          event_type: 'safety',
          detector_id: 'nsfwjs-mobilenet_v2',
          detector_version: expect.stringContaining('nsfwjs 4.') as unknown,
        });
        expect(e.score).toBeGreaterThan(0);
        expect(e.score).toBeLessThan(1);
        expect(e.description).toMatch(/^(Porn|Hentai|Sexy) content likely: peak score/);
      }
      const video = (
        await dl.get<{ safety: { frames_classified: number; max_unsafe_score: number; events: number } }>(
          `/videos/${videoId}`,
        )
      ).json;
      expect(video.safety.frames_classified).toBe(6);
      expect(video.safety.events).toBe(3);
      expect(video.safety.max_unsafe_score).toBeCloseTo(Math.max(...all.events.map((e) => e.score)), 4);
    });

    it('pages with next_cursor and reads incrementally with since', async () => {
      const first = (await dl.get<EventsPage>(`/videos/${videoId}/events?limit=2`)).json;
      expect(first.events).toHaveLength(2);
      expect(first.next_cursor).toEqual(expect.any(String) as unknown);
      const second = (await dl.get<EventsPage>(`/videos/${videoId}/events?limit=2&cursor=${first.next_cursor ?? ''}`))
        .json;
      expect(second.events.map((e) => e.start)).toEqual([2]);
      expect(second.next_cursor).toBeNull();
      const ids = new Set([...first.events, ...second.events].map((e) => e.event_id));
      expect(ids.size).toBe(3);
      const since = (await dl.get<EventsPage>(`/videos/${videoId}/events?since=1`)).json;
      expect(since.events.map((e) => e.start)).toEqual([1, 2]);
      expect((await dl.get(`/videos/${videoId}/events?cursor=garbage`)).json).toMatchObject({
        error: { code: 'invalid_argument' },
      });
      expect((await dl.get(`/videos/${videoId}/events?limit=101`)).status).toBe(400);
    });

    it('bills 0.001 USD per call and refuses when the balance cannot pay', async () => {
      const broke = datalakeClient(service.origin, service.createKey('broke', { kind: 'datalake', credits: 0 }));
      const res = await broke.get(`/videos/${videoId}/events`);
      expect(res.status).toBe(404); // another account's video is not visible at all
      const before = (await dl.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd;
      await dl.get(`/videos/${videoId}/events`);
      await dl.get(`/videos/${videoId}/events`);
      expect(before - (await dl.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd).toBe(
        2000,
      );
      service.setCredits('test', 0.0005);
      expect((await dl.get(`/videos/${videoId}/events`)).json).toMatchObject({
        error: { code: 'insufficient_balance' },
      });
      service.setCredits('test', 100);
    });
  });

  describe('live http (HLS) pull source', () => {
    interface Stream {
      stream_id: string;
      status: string;
      segments: number;
      duration: number;
      videos: { video_id: string; status: string; offset: number }[];
    }

    it('cuts the playing stream into segments whose index and events surface while it plays, then ends', async () => {
      const { dir, cleanup } = await tempDir('reelsync-hls-');
      const segments = await makeHls(fixturePath('phoneH264Mp4'), dir);
      expect(segments.length).toBe(3);
      // The source stays live until the test has seen a segment indexed while it plays: no race with the indexer's speed.
      const live = await startLiveHls(dir, segments, 1500, Infinity);
      try {
        const collection = (
          await dl.post<{ collection_id: string }>('/collections', { name: 'live', safety_detector: true })
        ).json.collection_id;
        const opened = await dl.post<Stream>('/streams', {
          collection_id: collection,
          source_url: `${live.url}/live.m3u8`,
          fps: 2,
          segment_seconds: 2,
        });
        expect(opened.status).toBe(201);
        expect(opened.json.status).toBe('starting');
        const id = opened.json.stream_id;
        // A segment is indexed and searchable while the source still plays (no ENDLIST yet).
        await expect
          .poll(async () => (await dl.get<Stream>(`/streams/${id}`)).json.videos.some((v) => v.status === 'ready'), {
            timeout: 30_000,
            interval: 200,
          })
          .toBe(true);
        const during = (await dl.get<Stream>(`/streams/${id}`)).json;
        expect(live.ended()).toBe(false);
        expect(during.status).toBe('live');
        const duringEvents = (await dl.get<EventsPage>(`/streams/${id}/events`)).json;
        expect(duringEvents.live).toBe(true);
        expect(duringEvents.events.length).toBeGreaterThan(0);
        live.end();

        await expect
          .poll(async () => (await dl.get<Stream>(`/streams/${id}`)).json.status, { timeout: 30_000 })
          .toBe('ended');
        const ended = (await dl.get<Stream>(`/streams/${id}`)).json;
        expect(ended.segments).toBe(2);
        expect(ended.duration).toBeCloseTo(3, 0);
        for (const v of ended.videos) {
          const video = await dl.get<{ source: { type: string; stream_id: string; offset: number } }>(
            `/videos/${v.video_id}`,
          );
          expect(video.json.source).toMatchObject({ type: 'stream', stream_id: id });
        }
        await expect
          .poll(async () => (await dl.get<EventsPage>(`/streams/${id}/events`)).json.live, { timeout: 30_000 })
          .toBe(false);
        // On the stream's timeline: the second segment's event starts at its offset (2 s), not at 0.
        const all = (await dl.get<EventsPage>(`/streams/${id}/events`)).json;
        const starts = all.events.map((e) => e.start);
        expect(starts.slice(0, 2)).toEqual([0, 1]);
        expect(starts).toHaveLength(3);
        expect(starts[2]).toBeCloseTo(2, 0); // the segment's own start in the source (2.0x s, after audio priming)
      } finally {
        await live.close();
        await cleanup();
      }
    });

    it('stops pulling on DELETE and stays stopped', async () => {
      const collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'stop' })).json
        .collection_id;
      const opened = await dl.post<Stream>('/streams', {
        collection_id: collection,
        source_url: `${media.url}/slow.mp4`,
      });
      await expect.poll(() => media.slow.open, { timeout: 30_000 }).toBeGreaterThan(0);
      const stopped = await dl.del<Stream>(`/streams/${opened.json.stream_id}`);
      expect(stopped.json).toMatchObject({ status: 'stopped', segments: 0 });
      // The puller hung up on the source, and the stream is still stopped once it has.
      await expect.poll(() => media.slow.open, { timeout: 30_000 }).toBe(0);
      expect((await dl.get<Stream>(`/streams/${opened.json.stream_id}`)).json.status).toBe('stopped');
      const list = await dl.get<{ streams: Stream[] }>('/streams?limit=100');
      expect(list.json.streams.map((s) => s.stream_id)).toContain(opened.json.stream_id);
    });

    it('refuses rtsp and rtmp sources with a clear message', async () => {
      const collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'rtsp' })).json
        .collection_id;
      const res = await dl.post('/streams', { collection_id: collection, source_url: 'rtsp://127.0.0.1/cam' });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain('rtsp pull sources are not supported');
    });
  });
});
