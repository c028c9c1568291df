import { PRICES_MICRO_USD } from '../../src/shared/api-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/media';
import { apiClient, type ApiClient } from '../helpers/api';
import {
  datalakeClient,
  startMediaServer,
  waitForOperation,
  type DatalakeClient,
  type LocalServer,
  type Operation,
} from '../helpers/datalake';
import { BLOB_BACKENDS, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

interface Timed {
  start: number;
  end: number;
}
interface Segment extends Timed {
  index: number;
  caption: string;
  transcript: string;
  ocr_text: string;
  labels: { label: string; score: number; source: string }[];
  faces: number;
  keyframe: { bucket: string; blob: string } | null;
}
interface Moment extends Timed {
  video_id: string;
  duration: number | null;
  live: boolean;
  segments: Segment[];
  words: (Timed & { word: string })[];
  safety_events: (Timed & { event_id: string })[] | null;
}
interface Transcription {
  transcriptions: { content: string; startTime: number; endTime: number }[];
}

describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  let service: TestService;
  let dl: DatalakeClient;
  let api: ApiClient;
  let media: LocalServer;
  let collection: string;
  let videoId: string;
  let full: Moment;

  // The speech fixture gives transcript words; a safety threshold of 0 with 1 s events gives several safety events
  // from the real classifier (no unsafe media needed), so one ingest covers every part of a moment.
  const testService = useService({ backend, config: { safety: { threshold: 0, maxEventSeconds: 1 } } });
  beforeAll(async () => {
    media = await startMediaServer();
    service = testService();
    dl = datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' }));
    api = apiClient(service.baseUrl, service.key);
    collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'moments', safety_detector: true }))
      .json.collection_id;
    const started = await dl.post<Operation>('/videos', {
      collection_id: collection,
      source_url: `${media.url}/media/${FIXTURES.speechMp4.file}`,
      fps: 2,
    });
    const op = await waitForOperation(dl, started.json.operation);
    expect(op.error).toBeNull();
    videoId = op.resource;
    const res = await dl.get<Moment>(`/videos/${videoId}/moment?start=0&end=600`);
    expect(res.status).toBe(200);
    full = res.json;
  }, 120_000);

  afterAll(async () => {
    await media?.close();
  });

  const moment = (query: string) => dl.get<Moment>(`/videos/${videoId}/moment${query}`);
  const overlaps = (t: Timed, start: number, end: number): boolean =>
    t.start < end && (t.end > start || t.start >= start);

  describe('a slice of an indexed video', () => {
    it('reads the whole video: end clamped to the duration, segments as the transcription gives them, words, events', async () => {
      const video = (await dl.get<{ duration: number }>(`/videos/${videoId}`)).json;
      expect(full).toMatchObject({
        video_id: videoId,
        start: 0,
        end: video.duration,
        duration: video.duration,
        live: false,
      });
      expect(full.segments.length).toBeGreaterThan(0);
      const transcription = (await api.get<Transcription>(`/get_video_transcription?video_no=${videoId}`)).json.data;
      expect(
        full.segments
          .filter((s) => s.transcript !== '')
          .map((s) => ({ content: s.transcript, startTime: s.start, endTime: s.end })),
      ).toEqual(
        transcription?.transcriptions.map((t) => ({ content: t.content, startTime: t.startTime, endTime: t.endTime })),
      );
      // The words are the ones behind the segments' transcripts (the recogniser's words, not necessarily the script's).
      expect(full.words.map((w) => w.word.toLowerCase())).toContain('sunset');
      const transcript = full.segments.map((s) => s.transcript.toLowerCase()).join(' ');
      for (const w of full.words) expect(transcript).toContain(w.word.toLowerCase());
      for (const w of full.words) expect(w.end).toBeGreaterThanOrEqual(w.start);
      for (const s of full.segments) {
        for (const l of s.labels)
          expect(l).toEqual({
            label: expect.any(String) as unknown,
            score: expect.any(Number) as unknown,
            source: expect.any(String) as unknown,
          });
        expect(s.faces).toBeGreaterThanOrEqual(0);
        expect(s.keyframe?.blob).toMatch(new RegExp(`^keyframes/${videoId}/`));
      }
      const events = (await dl.get<{ events: unknown[] }>(`/videos/${videoId}/events?limit=100`)).json.events;
      expect(events.length).toBeGreaterThan(1);
      expect(full.safety_events).toEqual(events);
    });

    it('gives only what overlaps a part of the video', async () => {
      const firstWord = full.words[0];
      const lastWord = full.words.at(-1);
      if (!firstWord || !lastWord) throw new Error('the speech fixture gave no words');
      // From the middle of the speech to just before its last word ends: words on both sides are left out.
      const start = (firstWord.start + lastWord.end) / 2;
      const end = lastWord.start;
      const res = await moment(`?start=${start}&end=${end}`);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ start, end });
      const words = full.words.filter((w) => overlaps(w, start, end));
      expect(words.length).toBeGreaterThan(0);
      expect(words.length).toBeLessThan(full.words.length);
      expect(res.json.words).toEqual(words);
      expect(res.json.segments).toEqual(full.segments.filter((s) => overlaps(s, start, end)));
      expect(res.json.safety_events).toEqual(full.safety_events?.filter((e) => overlaps(e, start, end)));
      expect(res.json.safety_events?.length).toBeLessThan(full.safety_events?.length ?? 0);
    });

    it('points at keyframes interface A downloads, and costs what the events call costs when it carries safety events', async () => {
      const balance = async (): Promise<number> =>
        (await dl.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd;
      const before = await balance();
      await moment('?start=0&end=1');
      expect(await balance()).toBe(before - PRICES_MICRO_USD.safetyEventsCall);
      const keyframe = full.segments[0]?.keyframe;
      if (!keyframe) throw new Error('no keyframe');
      const jpeg = await api.raw(
        'GET',
        `/download?bucket=${encodeURIComponent(keyframe.bucket)}&blob=${encodeURIComponent(keyframe.blob)}`,
      );
      expect(jpeg.status).toBe(200);
      expect(jpeg.body.subarray(0, 2).toString('hex')).toBe('ffd8');
    });
  });

  describe('refusals', () => {
    it('answers 400 invalid_argument for bad ranges', async () => {
      const cases: [string, RegExp][] = [
        ['', /start: is required/],
        ['?start=1', /end: is required/],
        ['?start=abc&end=2', /start: must be a number of seconds/],
        ['?start=&end=2', /start: is required/],
        ['?start=-1&end=2', /start: must be 0 or more/],
        ['?start=1&end=1e400', /end: must be a number of seconds/],
        ['?start=1&start=2&end=3', /start: must be one number/],
        ['?start=2&end=1', /end: must be after start/],
        ['?start=2&end=2', /end: must be after start/],
        ['?start=0&end=600.5', /at most 600 s/],
        ['?start=100&end=200', /start: must be before the end of the video/],
        ['?start=0&end=1&limit=5', /unknown field limit/],
      ];
      for (const [query, message] of cases) {
        const res = await moment(query);
        expect(res.status, query).toBe(400);
        expect(res.json, query).toMatchObject({
          error: { code: 'invalid_argument', message: expect.stringMatching(message) as unknown },
        });
      }
    });

    it("answers 404 for an unknown video and for another account's video; wants a datalake key", async () => {
      expect((await dl.get('/videos/VI_nope/moment?start=0&end=1')).json).toMatchObject({
        error: { code: 'not_found', message: 'video not found' },
      });
      const other = datalakeClient(service.origin, service.createKey('moment-other', { kind: 'datalake', credits: 5 }));
      const theirs = await other.get(`/videos/${videoId}/moment?start=0&end=1`);
      expect(theirs.status).toBe(404);
      expect(theirs.json).toEqual((await other.get('/videos/VI_nope/moment?start=0&end=1')).json);
      const library = await datalakeClient(service.origin, service.key).get(`/videos/${videoId}/moment?start=0&end=1`);
      expect(library.status).toBe(401);
      expect(library.json).toMatchObject({ error: { code: 'unauthenticated' } });
    });

    it('answers 409 conflict with the video status while there is no index yet', async () => {
      const session = await dl.post<{ video_id: string }>('/videos?upload=resumable', {
        collection_id: collection,
        size: 4096,
        filename: 'later.mp4',
      });
      const uploading = await dl.get(`/videos/${session.json.video_id}/moment?start=0&end=1`);
      expect(uploading.status).toBe(409);
      expect(uploading.json).toMatchObject({
        error: { code: 'conflict', status: 'uploading', message: expect.stringMatching(/not indexed yet/) as unknown },
      });

      const started = await dl.post<Operation>('/videos', {
        collection_id: collection,
        source_url: `${media.url}/slow.mp4`,
      });
      await waitForOperation(dl, started.json.operation, 10_000, (op) => op.progress.preprocess === 'running');
      const processing = await dl.get(`/videos/${started.json.resource}/moment?start=0&end=1`);
      expect(processing.status).toBe(409);
      expect(processing.json).toMatchObject({ error: { code: 'conflict', status: 'processing' } });
      expect((await dl.post(`/operations/${started.json.operation}:cancel`)).status).toBe(200);
      // A cancelled ingest leaves no video: 404 like every other read.
      expect((await dl.get(`/videos/${started.json.resource}/moment?start=0&end=1`)).status).toBe(404);
    });
  });
});
