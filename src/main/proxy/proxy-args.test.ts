import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '../../shared/api-types';
import { progressParser, type ProxyProgress } from './make-proxy';
import { AUDIO_BPS, proxySize, videoBitrate } from './proxy-args';
import { proxyFileName } from './proxy-job';

describe('proxy size and bit rate', () => {
  it('scales to the chosen width, never up, aspect kept, dimensions even', () => {
    expect(proxySize({ width: 3840, height: 2160 }, 1280)).toEqual({ w: 1280, h: 720 });
    expect(proxySize({ width: 1920, height: 1080 }, 960)).toEqual({ w: 960, h: 540 });
    expect(proxySize({ width: 640, height: 360 }, 1920)).toEqual({ w: 640, h: 360 });
    expect(proxySize({ width: 721, height: 481 }, 1280)).toEqual({ w: 720, h: 480 });
    expect(proxySize({ width: 4096, height: 1716 }, 1280)).toEqual({ w: 1280, h: 536 });
  });

  it('keeps any take under the upload limit (a 6-hour one included) and caps short takes at a quality rate', () => {
    for (const seconds of [2, 60, 3600, 6 * 3600, 24 * 3600]) {
      const bps = videoBitrate(seconds, 1280, true) + AUDIO_BPS;
      expect((bps * seconds) / 8, `${seconds} s`).toBeLessThan(UPLOAD_LIMITS.maxBytes * 0.95);
    }
    expect(videoBitrate(30, 1280, true)).toBe(5_000_000);
    expect(videoBitrate(30, 1920, false)).toBe(8_000_000);
    expect(videoBitrate(6 * 3600, 1280, true)).toBeGreaterThan(900_000);
  });

  it('names the proxy after the original stem', () => {
    expect(proxyFileName('/cards/A001/A001C003.mov')).toBe('A001C003.mp4');
    expect(proxyFileName('/cards/PRIVATE/00001.MTS')).toBe('00001.mp4');
    expect(proxyFileName('/x/clip.final.mxf')).toBe('clip.final.mp4');
  });
});

describe('ffmpeg -progress reading', () => {
  it('turns out_time into percent, x real time and ETA, across split chunks', () => {
    const seen: ProxyProgress[] = [];
    const feed = progressParser(10, 0, (p) => seen.push(p));
    feed('frame=50\nout_time_us=2000', 1000);
    feed('000\nspeed=2x\nprogress=continue\n', 1000);
    feed('out_time_us=10000000\nprogress=end\n', 4000);
    expect(seen).toEqual([
      { percent: 20, speed: 2, etaSeconds: 4 },
      { percent: 100, speed: 2.5, etaSeconds: 0 },
    ]);
  });
});
