import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { CAMERA_ORIGINALS, cameraOriginalPath, type CameraOriginalName } from '../../../test/fixtures/camera-originals';
import { fixturePath } from '../../../test/fixtures/media';
import { makeTimecodeOriginal, TIMECODE_ORIGINALS } from '../../../test/fixtures/timecode-originals';
import { tempDir } from '../../../test/helpers/temp';
import { embeddedTimecode, OriginalProbeError, probeOriginal, probeOriginalStreams } from './original-probe';

const run = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
/** The speech fixture's sound alone, in QuickTime (as a sound recorder's take). */
let sound: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-original-probe-'));
  sound = join(dir, 'sound-only.mov');
  await run('ffmpeg', ['-v', 'error', '-i', fixturePath('speechMp4'), '-vn', '-c:a', 'copy', sound]);
});
afterAll(async () => cleanup?.());

describe('probeOriginal: what a proxy needs', () => {
  test.each(Object.keys(CAMERA_ORIGINALS) as CameraOriginalName[])('%s', async (name) => {
    const want = CAMERA_ORIGINALS[name];
    const got = await probeOriginal(cameraOriginalPath(name));
    expect(got).toMatchObject({
      codec: want.codec,
      width: want.width,
      height: want.height,
      rate: want.fps,
      timecode: want.timecode,
      audio: want.audio,
    });
    const [num = 0, den = 1] = want.fps.split('/').map(Number);
    expect(got.fps).toBeCloseTo(num / den, 6);
    expect(Math.abs(got.duration - want.seconds)).toBeLessThan(0.1);
  });

  it('keeps a drop-frame timecode and an NTSC rate exactly', async () => {
    const got = await probeOriginal(await makeTimecodeOriginal('df2997', dir));
    expect([got.rate, got.timecode]).toEqual([TIMECODE_ORIGINALS.df2997.rate, TIMECODE_ORIGINALS.df2997.timecode]);
    expect(got.fps).toBeCloseTo(30000 / 1001, 6);
  });

  it('says in plain words why a file is no original: not media, no picture', async () => {
    await expect(probeOriginal(fixturePath('notVideoMp4'))).rejects.toThrow(OriginalProbeError);
    await expect(probeOriginal(sound)).rejects.toThrow(new OriginalProbeError('no video stream found'));
  });
});

describe('probeOriginalStreams: every stream and tag, for the identity', () => {
  it('reads a file without a picture too', async () => {
    const p = await probeOriginalStreams(sound);
    expect(p.streams.map((s) => s.codec_type)).toEqual(['audio']);
    expect(p.streams[0]?.sample_rate).toMatch(/^\d+$/);
    expect(p.format.format_name).toContain('mov');
  });

  it('takes the tmcd track first and tells MXF timecode from QuickTime', async () => {
    const mov = await probeOriginalStreams(cameraOriginalPath('proresMov'));
    expect(embeddedTimecode(mov)).toEqual({ text: CAMERA_ORIGINALS.proresMov.timecode, source: 'tmcd' });
    expect(mov.streams.some((s) => s.codec_tag_string === 'tmcd')).toBe(true);
    const mxf = await probeOriginalStreams(cameraOriginalPath('dnxhdMxf'));
    expect(embeddedTimecode(mxf)).toEqual({ text: CAMERA_ORIGINALS.dnxhdMxf.timecode, source: 'mxf' });
  });

  it('refuses what ffprobe cannot read with its reason', async () => {
    const note = join(dir, 'note.mov');
    await writeFile(note, 'call the producer before the shoot\n');
    await expect(probeOriginalStreams(note)).rejects.toThrow(OriginalProbeError);
    await expect(probeOriginalStreams(note)).rejects.toThrow(/invalid data/i);
  });
});
