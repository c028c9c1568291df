import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/fixtures/media';
import { mkvDeclaringOneMillisecond, mkvWithSqueezedTimestamps } from '../../../test/helpers/lying-media';
import { tempDir } from '../../../test/helpers/temp';
import { ProbeError } from './ffprobe';
import { probeWithTrustedDuration } from './probe-duration';
import { judgeTimeline, measureTimeline } from './timeline';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir('reelsync-timeline-')));
afterAll(async () => cleanup());

async function refusal(file: string): Promise<string> {
  const err = await probeWithTrustedDuration(file, 'uploadVideo').then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProbeError);
  expect((err as ProbeError).refused).toBe(true);
  return (err as ProbeError).message;
}

describe('trusted duration', () => {
  it('measures every packet of honest files and keeps their duration', async () => {
    const streams = await measureTimeline(fixturePath('phoneH264Mp4'), 'uploadVideo');
    expect(streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
    expect(streams.find((s) => s.type === 'video')).toMatchObject({ packets: 90 });
    for (const name of ['phoneH264Mp4', 'hevcMov', 'vp9Mkv', 'speechMp4'] as const) {
      const probe = await probeWithTrustedDuration(fixturePath(name), 'uploadVideo');
      expect(probe.durationSeconds).toBeGreaterThan(1);
    }
    expect((await probeWithTrustedDuration(fixturePath('phoneH264Mp4'), 'uploadVideo')).durationSeconds).toBeCloseTo(
      3,
      1,
    );
  });

  it('refuses a container that declares 1 ms over 20 s of packets', async () => {
    const file = await mkvDeclaringOneMillisecond(join(dir, 'lie.mkv'), 20);
    expect(await refusal(file)).toBe(
      'it declares a duration of 0.001 s but its streams run 20.0 s, so its duration cannot be trusted',
    );
  });

  it('refuses timestamps squeezed to 1000 frames per second', async () => {
    const file = await mkvWithSqueezedTimestamps(join(dir, 'squeezed.mkv'));
    expect(await refusal(file)).toMatch(/^its video stream packs 600 packets into 0\.6 s \(over 300 per second\)/);
  });

  it('prices by the packets when they run a little past the declared duration, and by the declaration when longer', () => {
    const video = (seconds: number) => [
      { index: 0, type: 'video' as const, packets: Math.round(seconds * 30), seconds },
    ];
    expect(judgeTimeline(10, video(11.5))).toEqual({ ok: true, seconds: 11.5 });
    expect(judgeTimeline(30, video(10))).toEqual({ ok: true, seconds: 30 });
    expect(judgeTimeline(null, video(10))).toEqual({ ok: true, seconds: 10 });
    expect(judgeTimeline(null, [])).toEqual({ ok: false, reason: 'it has no duration' });
  });
});
