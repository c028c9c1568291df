import { describe, expect, it } from 'vitest';
import { codecLabel, durationLabel, fpsLabel, resolutionLabel, takenLabel } from './media-facts';

describe('library column labels', () => {
  it('shows durations, rates and sizes as an editor reads them, and a dash for what is not known', () => {
    expect([durationLabel(2.6), durationLabel(61), durationLabel(3725), durationLabel(null)]).toEqual([
      '0:03',
      '1:01',
      '1:02:05',
      '—',
    ]);
    expect([
      fpsLabel(25),
      fpsLabel(29.97),
      fpsLabel(30000 / 1001),
      fpsLabel(23.976),
      fpsLabel(null),
      fpsLabel(0),
    ]).toEqual(['25', '29.97', '29.97', '23.98', '—', '—']);
    expect([resolutionLabel(1920, 1080), resolutionLabel(null, 1080), resolutionLabel(0, 0)]).toEqual([
      '1920×1080',
      '—',
      '—',
    ]);
    expect([codecLabel('hevc'), codecLabel('h264'), codecLabel(null)]).toEqual(['HEVC', 'H.264', '—']);
    expect(takenLabel('not a date')).toBe('not a date');
    expect(takenLabel(null)).toBe('—');
  });
});
