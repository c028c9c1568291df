import { execFileSync } from 'node:child_process';
import { copyFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cameraOriginalPath } from '../../../test/fixtures/camera-originals';
import { fixturePath } from '../../../test/fixtures/media';
import { tempDir } from '../../../test/helpers/temp';
import { SPRITE_FRAMES } from '../../shared/poster-sprite';
import { mediaSource } from './media-source';
import { PosterSprites } from './poster-sprites';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('reelsync-posters-')));
afterEach(async () => cleanup());

/** The JPEG's size as ffprobe reads it. */
function jpegSize(file: string): { width: number; height: number } {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'json', file]);
  const parsed = JSON.parse(out.toString()) as { streams: { width: number; height: number }[] };
  const s = parsed.streams[0];
  if (!s) throw new Error('no picture');
  return s;
}

describe('Library thumbnail sprites (issue 28 item 6)', () => {
  it('makes one JPEG of every frame side by side once per file version, serves it from the cache, and bounds the cache', async () => {
    const cache = join(dir, 'cache');
    const video = join(dir, 'title.mp4');
    await copyFile(fixturePath('drawnTextMp4'), video);
    const sprites = new PosterSprites(cache);
    const [a, b] = await Promise.all([sprites.get(video), sprites.get(video)]);
    if (!a.ok || !b.ok) throw new Error('no sprite');
    expect(a.bytes.equals(b.bytes)).toBe(true);
    const files = await readdir(cache);
    expect(files).toHaveLength(1);
    const made = join(cache, files[0] ?? '');
    expect(jpegSize(made)).toEqual({ width: SPRITE_FRAMES * 192, height: 108 });
    // Asked again, the cached file is what comes back: nothing is made twice.
    await writeFile(made, 'the cached sprite');
    const again = await sprites.get(video);
    expect(again.ok && again.bytes.toString()).toBe('the cached sprite');
    expect(await readdir(cache)).toHaveLength(1);

    // A new version of the file (another size and time) gets a sprite of its own.
    await copyFile(fixturePath('phoneH264Mp4'), video);
    const changed = await sprites.get(video);
    expect(changed.ok && !changed.bytes.equals(a.bytes)).toBe(true);
    expect(await readdir(cache)).toHaveLength(2);
    expect(await sprites.prune(1)).toBe(1);
    expect(await readdir(cache)).toHaveLength(1);

    // A camera original a browser cannot play (DNxHD in MXF) gets its picture too.
    const mxf = await sprites.get(cameraOriginalPath('dnxhdMxf'));
    expect(mxf.ok).toBe(true);

    const text = join(dir, 'notes.mp4');
    await writeFile(text, 'not a video at all');
    expect(await sprites.get(text)).toMatchObject({ ok: false, status: 422 });
  }, 60_000);

  it('answers "no such file" for a file deleted while its picture waits to be made, not that it cannot be decoded', async () => {
    const sprites = new PosterSprites(join(dir, 'cache'));
    const videos = await Promise.all(
      ['a.mp4', 'b.mp4', 'c.mp4'].map(async (name) => {
        const video = join(dir, name);
        await copyFile(fixturePath('drawnTextMp4'), video);
        return video;
      }),
    );
    // Two are made at once: the third waits its turn, and is gone by then (the editor deleted or renamed it).
    const answers = videos.map((video) => sprites.get(video));
    await rm(videos[2]!);
    const [a, b, c] = await Promise.all(answers);
    expect(a!.ok && b!.ok).toBe(true);
    expect(c).toEqual({ ok: false, status: 404, message: 'no such file' });
  }, 60_000);

  it('serves sprites only of files inside the allowed folders', async () => {
    const watched = join(dir, 'watched');
    const outside = join(dir, 'elsewhere.mp4');
    await copyFile(fixturePath('drawnTextMp4'), outside);
    const media = mediaSource({
      dataDir: join(dir, 'data'),
      watchedPaths: () => [watched],
      destinations: () => undefined,
      savedFile: () => false,
      thumbnails: () => undefined,
    });
    expect(await media.poster(outside)).toMatchObject({ ok: false, status: 403 });
    expect(await media.poster('relative.mp4')).toMatchObject({ ok: false, status: 400 });
    expect(await media.poster(join(dir, 'watched', '..', 'elsewhere.mp4'))).toMatchObject({ ok: false, status: 403 });
  }, 30_000);
});
