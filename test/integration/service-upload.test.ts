import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { UploadedVideo } from '../../src/shared/api-types';
import { fixturePath } from '../fixtures/media';
import { apiClient, type ApiClient } from '../helpers/api';
import { BLOB_BACKENDS, startService, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

describe.each(BLOB_BACKENDS)('on %s blobs', (backend) => {
  let service: TestService;
  let api: ApiClient;
  let scratch: { dir: string; cleanup: () => Promise<void> };

  const testService = useService({ backend, config: { indexer: { paused: true }, limits: { indexQueueCap: 50 } } });
  beforeAll(async () => {
    // Indexer paused: these tests are about the upload door, and videos must stay UNPARSE.
    service = testService();
    api = apiClient(service.baseUrl, service.key);
    scratch = await tempDir();
  });
  afterAll(async () => {
    await scratch.cleanup();
  });

  const balanceMicro = (account = 'test'): Promise<number> => balanceOf(service, account);
  const balanceOf = (of: TestService, account = 'test'): Promise<number> =>
    of.withSql(
      async (sql) =>
        z
          .object({ b: z.number() })
          .parse(await sql.get('SELECT balance_micro AS b FROM accounts WHERE name = ?', account)).b,
    );

  const expectRejected = (
    res: { status: number; json: { code: string; msg: string; data: unknown; success: boolean; failed: boolean } },
    msg: RegExp,
    status = 400,
  ) => {
    expect(res.json).toMatchObject({ code: '0001', data: null, success: false, failed: true });
    expect(res.json.msg).toMatch(msg);
    expect(res.status).toBe(status);
  };

  describe('POST /upload', () => {
    it('accepts an h264 mp4 and answers the uploaded video record', async () => {
      const before = Date.now();
      const res = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'), {
        'tags[0]': 'beach',
        'tags[1]': 'drone',
        tags: 'sunset',
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ code: '0000', msg: 'success', success: true, failed: false });
      const data = res.json.data!;
      expect(data.videoNo).toMatch(/^VI\d+$/);
      expect(data.videoStatus).toBe('UNPARSE');
      expect(typeof data.uploadTime).toBe('string');
      expect(Number(data.uploadTime)).toBeGreaterThanOrEqual(before);
      expect(Object.keys(data).sort()).toEqual(['uploadTime', 'videoName', 'videoNo', 'videoStatus']);
      const meta = await api.get<{ tags: string[]; status: string; folder_id: number; codec: string }>(
        `/get_metadata?video_no=${data.videoNo}`,
      );
      expect(meta.json.data).toMatchObject({
        status: 'UNPARSE',
        folder_id: -1,
        codec: 'h264',
        tags: ['beach', 'drone', 'sunset', 'api'],
      });
    });

    it('keeps the original in its blob backend (on S3: nothing of it in the data folder)', async () => {
      const res = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'));
      const { videoNo, videoName } = res.json.data!;
      const stored = new RegExp(`^reelsync-\\d+/videos/${videoNo}/${videoName}$`);
      if (backend === 'team') {
        const keys = await service.s3!.keys();
        expect(keys.filter((k) => stored.test(k))).toHaveLength(1);
        expect(existsSync(join(service.dataDir, 'blobs'))).toBe(false);
      } else {
        const files = await readdir(join(service.dataDir, 'blobs'), { recursive: true });
        expect(files.filter((f) => stored.test(f))).toHaveLength(1);
      }
      expect(await readdir(join(service.dataDir, 'tmp'))).toEqual([]);
    });

    it('accepts hevc .mov and vp9 .mkv', async () => {
      expect((await api.upload(fixturePath('hevcMov'), {}, { contentType: 'video/quicktime' })).json.code).toBe('0000');
      expect((await api.upload(fixturePath('vp9Mkv'), {}, { contentType: 'video/x-matroska' })).json.code).toBe('0000');
    });

    it('rejects a codec outside h264/h265/vp9, a truncated file and a non-video', async () => {
      expectRejected(
        await api.upload(fixturePath('mpeg4Avi'), {}, { contentType: 'video/x-msvideo' }),
        /codec mpeg4 is not supported/,
      );
      expectRejected(await api.upload(fixturePath('truncatedMp4')), /not a readable video: moov atom not found/);
      expectRejected(await api.upload(fixturePath('notVideoMp4')), /not a readable video/);
    });

    it('leaves no blob behind when it refuses a file it already began to store, and charges nothing', async () => {
      const originals = async (): Promise<string[]> =>
        backend === 'team'
          ? (await service.s3!.keys()).filter((k) => k.includes('/videos/'))
          : (await readdir(join(service.dataDir, 'blobs'), { recursive: true }).catch(() => [])).filter((f) =>
              f.includes('.'),
            );
      const before = await originals();
      const balance = await balanceMicro();
      // 20 MiB: on S3 its first parts are stored before the probe refuses it, then the multipart upload is aborted.
      const noise = join(scratch.dir, 'noise.mp4');
      await writeFile(noise, randomBytes(20 * 1024 * 1024));
      expectRejected(await api.upload(noise), /not a readable video/);
      expectRejected(
        await api.upload(fixturePath('mpeg4Avi'), {}, { contentType: 'video/x-msvideo' }),
        /codec mpeg4 is not supported/,
      );
      expectRejected(
        await api.upload(fixturePath('phoneH264Mp4'), { latitude: '95', longitude: '2' }),
        /latitude must be between/,
      );
      expect(await originals()).toEqual(before);
      expect(await balanceMicro()).toBe(balance);
      expect(await readdir(join(service.dataDir, 'tmp'))).toEqual([]);
    });

    it('checks the extension, the part type and that a file is there', async () => {
      expectRejected(
        await api.upload(fixturePath('phoneH264Mp4'), {}, { filename: 'clip.webm' }),
        /extension \.webm is not supported/,
      );
      expectRejected(
        await api.upload(fixturePath('phoneH264Mp4'), {}, { contentType: 'application/octet-stream' }),
        /Content-Type must start with video\//,
      );
      const empty = join(scratch.dir, 'empty.mp4');
      await writeFile(empty, '');
      expectRejected(await api.upload(empty), /file is empty/);
      expectRejected(await api.post('/upload', { file: 'nope' }), /multipart/);
    });

    it('enforces every form field rule', async () => {
      const up = (fields: Record<string, string | string[]>) => api.upload(fixturePath('phoneH264Mp4'), fields);
      expectRejected(
        await up({ callback: `http://example.com/${'x'.repeat(290)}` }),
        /callback must be at most 299 characters/,
      );
      expectRejected(await up({ callback: 'not a url' }), /callback must be an http or https URL/);
      expectRejected(
        await up({ datetime_taken: '2024/05/17 14:32:10' }),
        /datetime_taken must be in the format yyyy-MM-dd HH:mm:ss/,
      );
      expectRejected(await up({ datetime_taken: '2024-02-30 10:00:00' }), /datetime_taken/);
      expectRejected(await up({ camera_model: 'x'.repeat(201) }), /camera_model must be at most 200 characters/);
      expectRejected(await up({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), /at most 20 tags/);
      expectRejected(await up({ latitude: '48.85' }), /latitude and longitude must be given together/);
      expectRejected(await up({ latitude: '95', longitude: '2' }), /latitude must be between -90 and 90/);
      expectRejected(await up({ folder_id: 'abc' }), /folder_id must be an integer/);
      expectRejected(await up({ retain_original_video: 'maybe' }), /retain_original_video must be true or false/);
      const ok = await up({
        datetime_taken: '2024-05-17 14:32:10',
        camera_model: 'iPhone 15 Pro',
        latitude: '48.8584',
        longitude: '2.2945',
        retain_original_video: 'true',
      });
      expect(ok.json.code).toBe('0000');
      const meta = await api.get<Record<string, unknown>>(
        `/get_metadata?video_no=${(ok.json.data as UploadedVideo).videoNo}`,
      );
      expect(meta.json.data).toMatchObject({
        datetime_taken: '2024-05-17 14:32:10',
        camera_model: 'iPhone 15 Pro',
        latitude: 48.8584,
        longitude: 2.2945,
      });
    });

    it("puts videos in the caller's folders only; unique_id names a folder created on first use", async () => {
      const other = apiClient(service.baseUrl, service.createKey('folder-owner', { credits: 1 }));
      const foreign = await other.post<{ folder_id: number }>('/folders', { name: 'Theirs' });
      expectRejected(
        await api.upload(fixturePath('phoneH264Mp4'), { folder_id: String(foreign.json.data!.folder_id) }),
        /does not belong to this account/,
      );
      const mine = await api.post<{ folder_id: number }>('/folders', { name: 'Rushes' });
      const inMine = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'), {
        folder_id: String(mine.json.data!.folder_id),
      });
      expect(inMine.json.code).toBe('0000');
      const a = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'), { unique_id: 'project-x' });
      const b = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'), { unique_id: 'project-x' });
      const metaA = await api.get<{ folder_id: number }>(`/get_metadata?video_no=${a.json.data!.videoNo}`);
      const metaB = await api.get<{ folder_id: number }>(`/get_metadata?video_no=${b.json.data!.videoNo}`);
      expect(metaA.json.data!.folder_id).toBeGreaterThan(0);
      expect(metaA.json.data!.folder_id).toBe(metaB.json.data!.folder_id);
    });

    it('charges indexing at 0.5 USD per 1000 video minutes', async () => {
      const before = await balanceMicro();
      expect((await api.upload(fixturePath('phoneH264Mp4'))).json.code).toBe('0000');
      // 3 s of video = 0.05 min x 500 micro-USD/min = 25 micro-USD
      expect(before - (await balanceMicro())).toBe(25);
    });

    it('refuses with 0402 when the balance cannot pay, charging nothing', async () => {
      const poor = apiClient(service.baseUrl, service.createKey('poor', { credits: 0 }));
      const res = await poor.upload(fixturePath('phoneH264Mp4'));
      expect(res.status).toBe(402);
      expect(res.json).toMatchObject({ code: '0402', success: false, failed: true, data: null });
      expect(await balanceMicro('poor')).toBe(0);
    });

    it('refuses bad keys, missing keys and datalake keys with 0401', async () => {
      for (const key of ['', 'rsl_wrong', service.createKey('lake', { kind: 'datalake' })]) {
        const res = await apiClient(service.baseUrl, key).get('/get_metadata?video_no=x');
        expect(res.status).toBe(401);
        expect(res.json).toMatchObject({ code: '0401', success: false, failed: true, data: null });
      }
      const bearer = await apiClient(service.baseUrl, `Bearer ${service.key}`).get('/get_metadata?video_no=x');
      expect(bearer.json.code).toBe('0401');
    });
  });

  describe('upload limits', () => {
    it('rate-limits uploads per account with 429, 0429 and Retry-After', async () => {
      const limited = await startService({
        backend,
        config: { indexer: { paused: true }, limits: { uploadPerMinute: 2 } },
      });
      try {
        const c = apiClient(limited.baseUrl, limited.key);
        expect((await c.upload(fixturePath('phoneH264Mp4'))).json.code).toBe('0000');
        expect((await c.upload(fixturePath('phoneH264Mp4'))).json.code).toBe('0000');
        const third = await c.upload(fixturePath('phoneH264Mp4'));
        expect(third.status).toBe(429);
        expect(third.json).toMatchObject({ code: '0429', msg: 'Request has exceeded the limit.' });
        expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        await limited.stop();
      }
    });

    it('caps the indexing queue over the rolling two hours', async () => {
      const capped = await startService({
        backend,
        config: { indexer: { paused: true }, limits: { indexQueueCap: 2 } },
      });
      try {
        const c = apiClient(capped.baseUrl, capped.key);
        const before = await balanceOf(capped);
        // Concurrent uploads all pass the early check before any row exists: the exact one at the insert holds.
        const burst = await Promise.all([1, 2, 3, 4].map(() => c.upload(fixturePath('phoneH264Mp4'))));
        expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
        for (const refused of burst.filter((r) => r.status === 429)) {
          expect(refused.json.code).toBe('0429');
          expect(refused.json.msg).toMatch(/indexing queue is full/);
        }
        // Two charges of 25 micro-USD (as above): a refused upload was never charged, or was refunded.
        expect(before - (await balanceOf(capped))).toBe(2 * 25);
        const third = await c.upload(fixturePath('phoneH264Mp4'));
        expect(third.status).toBe(429);
        expect(third.json.code).toBe('0429');
        expect(third.json.msg).toMatch(/indexing queue is full/);
        expect(before - (await balanceOf(capped))).toBe(2 * 25);
      } finally {
        await capped.stop();
      }
    });
  });
});
