import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptionItem, ClipItem, UploadedVideo } from '../../src/shared/api-types';
import { DRAWN_TEXT, ensurePhotoClip, fixturePath, photoPath } from '../fixtures/media';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { BLOB_BACKENDS, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

describe.each(BLOB_BACKENDS)('on %s blobs', (backend) => {
  let service: TestService;
  let api: ApiClient;
  let other: ApiClient;
  let textVideo: string;
  let phoneVideo: string;
  let photoVideo: string;
  let speechVideo: string;
  let callbackServer: Server;
  const callbacks: unknown[] = [];

  const testService = useService({ backend });
  beforeAll(async () => {
    callbackServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        callbacks.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => callbackServer.listen(0, '127.0.0.1', () => r()));
    const callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/done`;
    service = testService();
    api = apiClient(service.baseUrl, service.key);
    other = apiClient(service.baseUrl, service.createKey('mallory', { credits: 10 }));
    const text = await api.upload<UploadedVideo>(fixturePath('drawnTextMp4'), {
      callback: callbackUrl,
      camera_model: 'Sony A7S III',
      'tags[0]': 'titles',
    });
    const phone = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'), {
      camera_model: 'iPhone 15 Pro',
      datetime_taken: '2024-05-17 14:32:10',
      latitude: '48.8584',
      longitude: '2.2945',
    });
    const photos = await api.upload<UploadedVideo>(await ensurePhotoClip());
    const speech = await api.upload<UploadedVideo>(fixturePath('speechMp4'));
    speechVideo = speech.json.data!.videoNo;
    textVideo = text.json.data!.videoNo;
    phoneVideo = phone.json.data!.videoNo;
    photoVideo = photos.json.data!.videoNo;
    await waitForStatus(api, textVideo, 120_000);
    await waitForStatus(api, phoneVideo, 120_000);
    await waitForStatus(api, photoVideo, 120_000);
    await waitForStatus(api, speechVideo, 120_000);
  }, 240_000);

  afterAll(async () => {
    callbackServer?.close();
  });

  const search = <T = ClipItem[]>(body: Record<string, unknown>, client = api) => client.post<T>('/search', body);

  describe('indexing lifecycle', () => {
    it('reaches PARSE with its metadata, and sends the callback', async () => {
      const meta = await api.get<Record<string, unknown>>(`/get_metadata?video_no=${textVideo}`);
      expect(meta.json.data).toMatchObject({
        videoNo: textVideo,
        video_no: textVideo,
        status: 'PARSE',
        progress: 100,
        width: 1280,
        height: 720,
        codec: 'h264',
      });
      await expect.poll(() => callbacks, { timeout: 10_000 }).toContainEqual({ videoNo: textVideo, status: 'PARSE' });
    });

    it('reads camera, GPS and capture time from the file when the upload gave none (exiftool)', async () => {
      const up = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'), {}, { filename: 'bare-upload.mp4' });
      const meta = await waitForStatus(api, up.json.data!.videoNo, 120_000);
      expect(meta).toMatchObject({
        status: 'PARSE',
        camera_model: 'Apple iPhone 15 Pro',
        latitude: 48.8584,
        longitude: 2.2945,
        datetime_taken: '2024-05-17 14:32:10',
      });
      await api.post('/delete_videos', [up.json.data!.videoNo]);
    });

    it('answers an unknown video with success and data null', async () => {
      expect((await api.get('/get_metadata?video_no=VI0')).json).toEqual({
        code: '0000',
        msg: 'success',
        data: null,
        success: true,
        failed: false,
      });
      expect((await api.get('/get_metadata')).json).toMatchObject({ code: '0001', msg: 'video_no is required' });
    });

    it('leaves no scratch or copy of an original in tmp/ once indexed; on S3 keyframes and poster are objects', async () => {
      // The job clears its folders just after the status turns PARSE.
      await expect.poll(() => readdir(join(service.dataDir, 'tmp')), { timeout: 10_000 }).toEqual([]);
      if (backend === 'team') {
        const keys = await service.s3!.keys();
        expect(keys.some((k) => k.includes(`/keyframes/${textVideo}/`))).toBe(true);
        expect(keys.some((k) => k.endsWith(`/posters/${textVideo}/poster.jpg`))).toBe(true);
      }
    });
  });

  describe('POST /search', () => {
    it('finds drawn text by a word of it, with keyframe and video locations', async () => {
      const res = await search({ search_param: DRAWN_TEXT.split(' ')[0]!.toLowerCase() });
      expect(res.json.code).toBe('0000');
      const hit = res.json.data!.find((h) => h.videoNo === textVideo);
      expect(hit).toBeDefined();
      expect(hit!.score).toBeGreaterThan(0);
      expect(hit!.score).toBeLessThanOrEqual(1);
      expect(Number(hit!.endTime)).toBeGreaterThan(Number(hit!.startTime));
      expect(hit!.keyframe_blob).toMatch(/^keyframes\//);
      expect(hit!.video_bucket).toBe(hit!.keyframe_bucket);
      expect(typeof hit!.startTime).toBe('string');
    });

    it('finds objects by their label and by a WordNet synonym, at the right time', async () => {
      for (const word of ['motorcycle', 'motorbike']) {
        const hits = (await search({ search_param: word })).json.data!.filter((h) => h.videoNo === photoVideo);
        expect(hits[0], word).toMatchObject({ startTime: '3', endTime: '6' });
      }
      const person = (await search({ search_param: 'person' })).json.data!.filter((h) => h.videoNo === photoVideo);
      expect(person[0]).toMatchObject({ startTime: '0', endTime: '3' });
    });

    it('finds spoken words with BY_AUDIO, the transcript in audio_ts, whatever the spelling', async () => {
      for (const query of ['sunset', 'harbour boats']) {
        const hits = (await search({ search_param: query, search_type: 'BY_AUDIO' })).json.data!;
        expect(hits[0]?.videoNo, query).toBe(speechVideo);
        expect(hits[0]?.audio_ts).toMatch(/sunset/);
      }
      const transcript = await api.get<{ transcriptions: { content: string }[] }>(
        `/get_video_transcription?video_no=${speechVideo}`,
      );
      expect(transcript.json.data!.transcriptions.map((t) => t.content).join(' ')).toMatch(/filmed the sunset/);
    });

    type Page = {
      total_count: number;
      item: { name: string; blob: string; score: number }[];
      faces_in_query: number;
    };

    it('finds a face by a photo of it (POST /search_image with an image)', async () => {
      const res = await api.upload<Page>(
        await photoPath('astronaut'),
        { top_k: '5' },
        { contentType: 'image/png', path: '/search_image' },
      );
      expect(res.json.code).toBe('0000');
      expect(res.json.data!.faces_in_query).toBeGreaterThan(0);
      expect(res.json.data!.item[0]!.blob).toBe(`keyframes/${photoVideo}/0.jpg`);
      expect(res.json.data!.item[0]!.score).toBeGreaterThan(0.5);
      const noFace = await api.upload<Page>(
        await photoPath('coffee'),
        {},
        { contentType: 'image/png', path: '/search_image' },
      );
      expect(noFace.json.data).toMatchObject({ faces_in_query: 0, total_count: 0, item: [] });
      const notImage = await api.upload(
        fixturePath('phoneH264Mp4'),
        {},
        { contentType: 'video/mp4', path: '/search_image' },
      );
      expect(notImage.json.msg).toMatch(/image\/ Content-Type/);
    });

    it('validates every field of the contract', async () => {
      const bad = async (body: Record<string, unknown>, msg: RegExp) => {
        const res = await search(body);
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ code: '0001', data: null, success: false });
        expect(res.json.msg).toMatch(msg);
      };
      await bad({ search_param: '' }, /search_param must not be empty/);
      await bad({}, /search_param/);
      await bad({ search_param: 'x', search_type: 'BY_SMELL' }, /search_type must be one of/);
      await bad({ search_param: 'x', top_k: 0 }, /top_k must be between 1 and 1000/);
      await bad({ search_param: 'x', top_k: 1001 }, /top_k must be between 1 and 1000/);
      await bad({ search_param: 'x', search_type: 'BY_CAPTION', top_k: 201 }, /between 1 and 200 for BY_CAPTION/);
      await bad({ search_param: 'x', video_nos: Array.from({ length: 101 }, (_, i) => `V${i}`) }, /at most 100/);
      await bad({ search_param: 'x', latitude: 48.8 }, /latitude and longitude must be given together/);
      await bad({ search_param: 'x', datetime_taken: '17.05.2024' }, /yyyy-MM-dd HH:mm:ss/);
      await bad({ search_param: 'x', filtering_level: 'extreme' }, /filtering_level/);
    });

    it('BY_VIDEO is BY_CLIP; filters narrow by video, camera, tag, date and GPS', async () => {
      const word = 'harbour';
      const clip = await search({ search_param: word });
      const video = await search({ search_param: word, search_type: 'BY_VIDEO' });
      expect(video.json.data).toEqual(clip.json.data);
      expect((await search({ search_param: word, camera_tag: 'iPhone 15 Pro' })).json.data).toEqual([]);
      expect((await search({ search_param: word, camera_tag: 'Sony A7S III' })).json.data!.length).toBeGreaterThan(0);
      expect((await search({ search_param: word, tag: 'titles' })).json.data!.length).toBeGreaterThan(0);
      expect((await search({ search_param: word, tag: 'nope' })).json.data).toEqual([]);
      expect((await search({ search_param: word, video_nos: [phoneVideo] })).json.data).toEqual([]);
      const phoneName = await search({ search_param: 'phone h264', latitude: 48.8584, longitude: 2.2945 });
      expect(phoneName.json.data!.map((h) => h.videoNo)).toEqual([phoneVideo]);
      expect((await search({ search_param: 'phone h264', latitude: -33.86, longitude: 151.2 })).json.data).toEqual([]);
      expect((await search({ search_param: 'phone h264', datetime_taken: '2025-01-01 00:00:00' })).json.data).toEqual(
        [],
      );
      expect(
        (await search({ search_param: 'phone h264', datetime_taken: '2024-01-01 00:00:00' })).json.data!.length,
      ).toBe(1);
    });

    it('filtering levels drop low scores and top_k caps the count', async () => {
      const all = (await search({ search_param: 'harbour zebra giraffe elephant' })).json.data!;
      expect(all.length).toBeGreaterThan(0);
      expect(all.every((h) => h.score < 0.4)).toBe(true);
      expect(
        (await search({ search_param: 'harbour zebra giraffe elephant', filtering_level: 'high' })).json.data,
      ).toEqual([]);
      expect((await search({ search_param: 'h264', top_k: 1 })).json.data!.length).toBeLessThanOrEqual(1);
    });

    it('BY_CAPTION answers caption rows with vector, user_id and 1 - distance scores', async () => {
      const res = await search<CaptionItem[]>({ search_param: 'harbour lights', search_type: 'BY_CAPTION' });
      expect(res.json.code).toBe('0000');
      const item = res.json.data![0]!;
      // The contract's fields, plus Reelsync's own: the keyframe and why it matched (a cloud client ignores them).
      expect(Object.keys(item).sort()).toEqual([
        'end_time',
        'keyframe_blob',
        'keyframe_bucket',
        'matched',
        'score',
        'start_time',
        'text',
        'user_id',
        'vector',
        'video_no',
      ]);
      expect(item.vector.length).toBeGreaterThan(0);
      expect(item.user_id).toMatch(/^[0-9a-f]{32}$/);
      expect(item.score).toBeGreaterThan(0);
      expect(item.score).toBeLessThanOrEqual(1);
      expect(typeof item.start_time).toBe('number');
    });

    it('BY_IMAGE answers the paginated image object', async () => {
      const res = await search<{
        current_page: number;
        page_size: number;
        total_count: number;
        item: { bucket: string; blob: string }[];
      }>({
        search_param: 'harbour',
        search_type: 'BY_IMAGE',
        top_k: 5,
      });
      expect(res.json.data).toMatchObject({ current_page: 1, page_size: 5 });
      expect(res.json.data!.total_count).toBeGreaterThan(0);
      expect(res.json.data!.item[0]!.blob).toMatch(/^keyframes\//);
    });

    it("searches only the caller's library", async () => {
      expect((await search({ search_param: 'harbour' }, other)).json.data).toEqual([]);
      expect((await search({ search_param: 'harbour', video_nos: [textVideo] }, other)).json.data).toEqual([]);
    });
  });

  describe('GET /download', () => {
    it('streams the original with the upload name, its length, byte for byte', async () => {
      const meta = (await api.get<{ video_bucket: string; video_blob: string }>(`/get_metadata?video_no=${textVideo}`))
        .json.data!;
      const res = await api.raw('GET', `/download?bucket=${meta.video_bucket}&blob=${meta.video_blob}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('video/mp4');
      expect(res.headers['content-disposition']).toContain('attachment; filename="drawn-text.mp4"');
      const original = await readFile(fixturePath('drawnTextMp4'));
      expect(res.headers['content-length']).toBe(String(original.length));
      expect(res.body.equals(original)).toBe(true);
    });

    it('serves keyframes, the v2 path, byte ranges, and POST by video_no', async () => {
      const hit = (await search({ search_param: 'harbour' })).json.data!.find((h) => h.videoNo === textVideo)!;
      const key = await api.raw('GET', `/download?bucket=${hit.keyframe_bucket}&blob=${hit.keyframe_blob}`);
      expect(key.headers['content-type']).toBe('image/jpeg');
      expect(key.body.subarray(0, 2).toString('hex')).toBe('ffd8');
      const v2 = await apiClient(service.baseUrl.replace('/v1', '/v2'), service.key).raw(
        'GET',
        `/download?bucket=${hit.video_bucket}&blob=${hit.video_blob}`,
      );
      expect(v2.status).toBe(200);
      const part = await api.raw('GET', `/download?bucket=${hit.video_bucket}&blob=${hit.video_blob}`, undefined, {
        range: 'bytes=100-199',
      });
      expect(part.status).toBe(206);
      expect(part.body.equals((await readFile(fixturePath('drawnTextMp4'))).subarray(100, 200))).toBe(true);
      const byNo = await api.raw('POST', '/download', { video_no: textVideo });
      expect(byNo.body.equals(await readFile(fixturePath('drawnTextMp4')))).toBe(true);
    });

    it("answers errors as JSON envelopes with the contract's messages", async () => {
      const err = async (query: string, msg: string, client = api) => {
        const res = await client.raw('GET', `/download${query}`);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body.toString())).toEqual({
          code: '0001',
          msg,
          data: null,
          success: false,
          failed: true,
        });
      };
      const meta = (await api.get<{ video_bucket: string; video_blob: string }>(`/get_metadata?video_no=${textVideo}`))
        .json.data!;
      await err('?blob=x', 'Bucket cannot be null or empty');
      await err(`?bucket=${meta.video_bucket}`, 'Blob cannot be null or empty');
      await err(`?bucket=${meta.video_bucket}&blob=videos/nothing.mp4`, 'Resource does not exist');
      await err(`?bucket=${meta.video_bucket}&blob=../../service.db`, 'Resource does not exist');
      await err(`?bucket=${meta.video_bucket}&blob=videos/%2e%2e/%2e%2e/%2e%2e/service.db`, 'Resource does not exist');
      await err(`?bucket=${meta.video_bucket}&blob=${meta.video_blob}`, 'Resource does not exist', other);
    });

    it("refuses before streaming when the balance is short, with the contract's message", async () => {
      const meta = (await api.get<{ video_bucket: string; video_blob: string }>(`/get_metadata?video_no=${textVideo}`))
        .json.data!;
      service.setCredits('test', 0);
      try {
        const res = await api.raw('GET', `/download?bucket=${meta.video_bucket}&blob=${meta.video_blob}`);
        expect(res.status).toBe(402);
        expect((JSON.parse(res.body.toString()) as { msg: string }).msg).toBe(
          'Insufficient balance to download the resource. Please recharge and try again.',
        );
      } finally {
        service.setCredits('test', 100);
      }
    });
  });

  describe('videos and folders', () => {
    it('lists videos with paging and filters', async () => {
      const res = await api.post<{
        videos: { videoNo: string }[];
        total_count: number;
        page_size: number;
        current_page: number;
      }>('/list_videos', { page: 1, size: 1 });
      expect(res.json.data).toMatchObject({ current_page: 1, page_size: 1, total_count: 4 });
      expect(res.json.data!.videos).toHaveLength(1);
      const byName = await api.post<{ videos: { videoNo: string }[] }>('/list_videos', { video_name: 'drawn' });
      expect(byName.json.data!.videos.map((v) => v.videoNo)).toEqual([textVideo]);
      expect((await api.post<{ total_count: number }>('/list_videos', { status: 'FAIL' })).json.data!.total_count).toBe(
        0,
      );
      expect((await other.post<{ total_count: number }>('/list_videos', {})).json.data!.total_count).toBe(0);
      expect((await api.post('/list_videos', { size: 101 })).json.code).toBe('0001');
    });

    it('creates, renames, lists and deletes folders', async () => {
      const created = await api.post<{ folder_id: number; name: string }>('/folders', { name: 'Interviews' });
      const id = created.json.data!.folder_id;
      expect((await api.patch<{ name: string }>(`/folders/${id}`, { name: 'Interviews 2026' })).json.data!.name).toBe(
        'Interviews 2026',
      );
      const list = await api.get<{ folder_id: number; name: string }[]>('/folders');
      expect(list.json.data!.map((f) => f.folder_id)).toEqual([-1, id]);
      expect((await other.patch(`/folders/${id}`, { name: 'stolen' })).json.code).toBe('0001');
      expect((await api.del(`/folders/${id}`)).json.code).toBe('0000');
      expect((await api.del('/folders/-1')).json.msg).toMatch(/cannot be deleted/);
    });

    it('deletes videos: files, keyframes and index rows go, their blobs answer Resource does not exist', async () => {
      const up = await api.upload<UploadedVideo>(fixturePath('drawnTextMp4'), {}, { filename: 'to-delete.mp4' });
      const no = up.json.data!.videoNo;
      await waitForStatus(api, no, 120_000);
      const meta = (
        await api.get<{ video_bucket: string; video_blob: string; poster_blob: string }>(`/get_metadata?video_no=${no}`)
      ).json.data!;
      expect((await other.post<{ not_found: string[] }>('/delete_videos', [no])).json.data!.not_found).toEqual([no]);
      expect((await api.post<{ deleted: string[] }>('/delete_videos', { video_nos: [no] })).json.data!.deleted).toEqual(
        [no],
      );
      const gone = await api.raw('GET', `/download?bucket=${meta.video_bucket}&blob=${meta.video_blob}`);
      expect((JSON.parse(gone.body.toString()) as { msg: string }).msg).toBe('Resource does not exist');
      const poster = await api.raw('GET', `/download?bucket=${meta.video_bucket}&blob=${meta.poster_blob}`);
      expect((JSON.parse(poster.body.toString()) as { msg: string }).msg).toBe('Resource does not exist');
      expect((await api.get(`/get_metadata?video_no=${no}`)).json.data).toBeNull();
      expect((await search({ search_param: 'harbour', video_nos: [no] })).json.data).toEqual([]);
      expect(
        (
          await api.post(
            '/delete_videos',
            Array.from({ length: 101 }, (_, i) => `V${i}`),
          )
        ).json.msg,
      ).toMatch(/at most 100/);
    });
  });
});
