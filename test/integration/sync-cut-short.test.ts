import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture } from '../fixtures/media';
import { syncSuite } from '../helpers/sync-engine';

const suite = syncSuite('reelsync-cut-');

describe('an mp4 cut short after an index that describes all of it (+faststart, then head -c)', () => {
  it('is skipped with a plain reason and its raw cause as details, and never uploaded', async () => {
    const folder = join(suite.dir, 'card');
    await mkdir(folder, { recursive: true });
    await copyFixture('faststartTruncatedMp4', folder, 'A001_cut.mp4');
    await copyFixture('phoneH264Mp4', folder, 'A002_whole.mp4');

    const t = await suite.engine('client');
    try {
      await t.engine.addFolder({ path: folder, tags: [] });
      await t.engine.scan();
      await t.engine.waitForIdle();
      const { files } = t.engine.files(1, 10);
      const cut = files.find((f) => f.path.endsWith('A001_cut.mp4'));
      const whole = files.find((f) => f.path.endsWith('A002_whole.mp4'));
      expect(cut).toMatchObject({ status: 'skipped', videoNo: null });
      expect(cut?.reason).toMatch(/^This video is cut short/);
      expect(cut?.reason).not.toMatch(/partial file|Invalid data|moov|ffmpeg/i);
      expect(cut?.details).toMatch(/partial file: the streams declare .* but the file holds/);
      expect(whole?.status).toBe('indexed');

      // The service holds the whole file only: the cut one was never sent.
      const listed = await t.client.listVideos({ page: 1, size: 50 });
      expect(listed.total_count).toBe(1);
      expect(listed.videos[0]?.videoNo).toBe(whole?.videoNo);
    } finally {
      await t.stop();
    }
  });
});
