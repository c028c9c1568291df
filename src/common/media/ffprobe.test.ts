import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/fixtures/media';
import { ffprobe, ProbeError } from './ffprobe';

describe('ffprobe', () => {
  it('reads codec, size, duration and frame rate', async () => {
    const r = await ffprobe(fixturePath('phoneH264Mp4'), { kind: 'uploadVideo' });
    expect(r.video).toMatchObject({ codec: 'h264', width: 640, height: 360, fps: 30, rotation: 0 });
    expect(r.audio?.codec).toBe('aac');
    expect(r.durationSeconds).toBeCloseTo(3, 1);
    expect(r.container).toContain('mp4');
  });

  it('names hevc and vp9', async () => {
    expect((await ffprobe(fixturePath('hevcMov'), { kind: 'uploadVideo' })).video?.codec).toBe('hevc');
    expect((await ffprobe(fixturePath('vp9Mkv'), { kind: 'uploadVideo' })).video?.codec).toBe('vp9');
  });

  it("throws a ProbeError with ffprobe's reason for a broken file", async () => {
    await expect(ffprobe(fixturePath('truncatedMp4'), { kind: 'uploadVideo' })).rejects.toThrow(ProbeError);
    await expect(ffprobe(fixturePath('truncatedMp4'), { kind: 'uploadVideo' })).rejects.toThrow(/moov atom not found/);
    await expect(ffprobe(fixturePath('notVideoMp4'), { kind: 'uploadVideo' })).rejects.toThrow(ProbeError);
  });
});
