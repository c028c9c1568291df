import { describe, expect, it } from 'vitest';
import { parseTime, smpte } from './format';

describe('SMPTE timecode', () => {
  it('shows HH:MM:SS:FF at the video frame rate', () => {
    expect(smpte(0, 25)).toBe('00:00:00:00');
    expect(smpte(3.48, 25)).toBe('00:00:03:12');
    expect(smpte(3661.5, 30)).toBe('01:01:01:15');
    expect(smpte(1 / 29.97, 29.97)).toBe('00:00:00:01');
  });

  it('falls back to m:ss.t when the frame rate is unknown', () => {
    expect(smpte(75.25, null)).toBe('1:15.3');
  });

  it('reads SMPTE, clock times and decimal seconds back', () => {
    expect(parseTime('00:00:03:12', 25)).toBeCloseTo(3.48, 6);
    expect(parseTime('01:01:01;15', 30)).toBeCloseTo(3661.5, 6);
    expect(parseTime('1:15.3', 25)).toBeCloseTo(75.3, 6);
    expect(parseTime('1:02:03.5', null)).toBeCloseTo(3723.5, 6);
    expect(parseTime('12.5', 25)).toBe(12.5);
    expect(parseTime(' 7 ', 25)).toBe(7);
    for (let f = 0; f < 25; f++) expect(parseTime(smpte(10 + f / 25, 25), 25)).toBeCloseTo(10 + f / 25, 6);
  });

  it('refuses what is not a time', () => {
    expect(parseTime('00:00:03:25', 25)).toBeNull();
    expect(parseTime('00:00:03:12', null)).toBeNull();
    expect(parseTime('1:75', 25)).toBeNull();
    expect(parseTime('abc', 25)).toBeNull();
    expect(parseTime('-3', 25)).toBeNull();
    expect(parseTime('', 25)).toBeNull();
  });
});
