import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cameraOriginalPath } from '../../../test/fixtures/camera-originals';
import { fixturePath } from '../../../test/fixtures/media';
import { useTempClientDb } from '../../../test/helpers/temp-db';
import { readOriginalIdentity } from './original-identity';
import { browserPlays, playbackOf, sourceIdentity } from './playback';
import { timecodeAt } from '../../shared/timecode';

const t = useTempClientDb();

describe('what the player plays', () => {
  test('formats a browser decodes play from the original; ProRes, DNxHD MXF, MPEG-2 MXF, 4:2:2 H.264 do not', async () => {
    const plays = async (path: string): Promise<boolean> => browserPlays(await readOriginalIdentity(path));
    expect(await plays(fixturePath('phoneH264Mp4'))).toBe(true);
    expect(await plays(cameraOriginalPath('proresMov'))).toBe(false);
    expect(await plays(cameraOriginalPath('dnxhdMxf'))).toBe(false);
    expect(await plays(cameraOriginalPath('mpeg2Mxf'))).toBe(false);
    expect(await plays(cameraOriginalPath('avchdMts'))).toBe(false);
    expect(await plays(cameraOriginalPath('h264TenBitMov'))).toBe(false);
  });

  test('a ProRes original plays from its proxy while the cache has it, then from a downloaded copy, else not', async () => {
    const original = cameraOriginalPath('proresMov');
    const id = await readOriginalIdentity(original);
    const cache = join(t.dir, 'proxies');
    await mkdir(cache);
    const proxy = join(cache, 'p.mp4');
    await copyFile(fixturePath('phoneH264Mp4'), proxy);
    const now = Date.now();
    t.db
      .prepare("INSERT INTO proxies (hash, state, path, video_no, created_at) VALUES ('h', 'uploaded', ?, 'V1', ?)")
      .run(proxy, now);
    expect(playbackOf(t.db, 'V1', original, id)).toEqual({ kind: 'proxy', path: proxy });
    t.db.prepare("UPDATE proxies SET path = ? WHERE hash = 'h'").run(join(cache, 'gone.mp4'));
    expect(playbackOf(t.db, 'V1', original, id)).toEqual({ kind: 'unplayable', path: null });
    const copy = join(t.dir, 'copy.mp4');
    await copyFile(fixturePath('phoneH264Mp4'), copy);
    t.db
      .prepare(
        "INSERT INTO downloads (kind, bucket, blob, video_no, dest_dir, path, state, created_at, updated_at) VALUES ('video', 'b', 'videos/x.mp4', 'V1', ?, ?, 'done', ?, ?)",
      )
      .run(t.dir, copy, now, now);
    expect(playbackOf(t.db, 'V1', original, id)).toEqual({ kind: 'library', path: copy });
    const phone = fixturePath('phoneH264Mp4');
    expect(playbackOf(t.db, 'V2', phone, await readOriginalIdentity(phone))).toEqual({ kind: 'original', path: phone });
    expect(playbackOf(t.db, 'V3', null, null)).toEqual({ kind: 'none', path: null });
  });

  test("the player's source timecode is the original's start plus the frames played", async () => {
    const source = sourceIdentity(await readOriginalIdentity(cameraOriginalPath('proresMov')));
    expect(source && timecodeAt(source.startFrame, source.rate, source.dropFrame, 1.52)).toBe('01:00:01:13');
    const df = {
      startFrame: 107_890,
      rate: '30000/1001',
      dropFrame: true,
      startTimecode: '00:59:59;28',
      reel: null,
      clipName: 'x',
      codec: null,
    };
    expect(timecodeAt(df.startFrame, df.rate, df.dropFrame, (2 * 1001) / 30000)).toBe('01:00:00;00');
  });
});
