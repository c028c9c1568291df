import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, PHONE_METADATA, type FixtureName } from '../fixtures/media';
import { syncSuite } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-sync-');

describe('sync of the fixture folder against the real service', () => {
  it('uploads the acceptable files once, proxies the decodable others, skips the rest with a stored reason', async () => {
    const folder = join(suite.dir, 'footage');
    await mkdir(join(folder, 'day2'), { recursive: true });
    await mkdir(join(folder, '.cache'), { recursive: true });
    await mkdir(join(folder, '@eaDir'), { recursive: true });
    const names: FixtureName[] = ['phoneH264Mp4', 'hevcMov', 'vp9Mkv', 'mpeg4Avi', 'truncatedMp4', 'notVideoMp4'];
    for (const n of names) await copyFixture(n, folder);
    await copyFixture('phoneH264Mp4', join(folder, 'day2'), 'same-content-renamed.mp4');
    await copyFixture('hevcMov', join(folder, '.cache'));
    await copyFixture('vp9Mkv', join(folder, '@eaDir'));

    const t = await suite.engine('client');
    try {
      await t.engine.addFolder({ path: folder, tags: ['shoot-a'] });
      const report = await t.engine.scan();
      expect(report.files).toBe(7); // junk and dot folders never recorded
      await t.engine.waitForIdle();

      const { files } = t.engine.files(1, 100);
      const byName = new Map(files.map((f) => [f.path.slice(folder.length + 1), f]));
      expect(byName.get('phone-h264.mp4')?.status).toBe('indexed');
      expect(byName.get('hevc.mov')?.status).toBe('indexed');
      expect(byName.get('vp9.mkv')?.status).toBe('indexed');
      // The library refuses MPEG-4 part 2; ffmpeg decodes it, so an H.264 proxy goes up in its place.
      expect(byName.get('mpeg4-part2.avi')?.status).toBe('indexed');
      expect(byName.get('truncated.mp4')).toMatchObject({
        status: 'skipped',
        reason: expect.stringMatching(/incomplete/) as unknown,
        details: expect.stringMatching(/moov/) as unknown,
      });
      expect(byName.get('not-a-video.mp4')).toMatchObject({
        status: 'skipped',
        reason: expect.stringMatching(/^This is not a video at all/) as unknown,
      });
      const renamed = byName.get('day2/same-content-renamed.mp4');
      expect(renamed?.status).toBe('indexed');
      expect(renamed?.videoNo).toBe(byName.get('phone-h264.mp4')?.videoNo);

      // The library holds exactly four videos (one a proxy), each with its hash tag; the phone's capture metadata.
      const listed = await t.client.listVideos({ page: 1, size: 50 });
      expect(listed.total_count).toBe(4);
      const phone = listed.videos.find((v) => v.videoNo === byName.get('phone-h264.mp4')?.videoNo);
      expect(phone?.tags).toEqual(
        expect.arrayContaining(['shoot-a', `sha256:${byName.get('phone-h264.mp4')?.hash ?? ''}`]),
      );
      expect(phone?.camera_model).toContain(PHONE_METADATA.model);
      expect(phone?.datetime_taken).toBe('2024-05-17 14:32:10');
      expect(phone?.latitude).toBeCloseTo(PHONE_METADATA.latitude, 3);
      expect(phone?.longitude).toBeCloseTo(PHONE_METADATA.longitude, 3);

      // A second scan of an unchanged tree schedules nothing and uploads nothing.
      const again = await t.engine.scan();
      expect(again).toMatchObject({ new: 0, changed: 0, unchanged: 7 });
      await t.engine.waitForIdle();
      expect((await t.client.listVideos({ page: 1, size: 50 })).total_count).toBe(4);
    } finally {
      await t.stop();
    }
  });
});
