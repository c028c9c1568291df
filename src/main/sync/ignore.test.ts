import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeIgnore } from './ignore';

describe('makeIgnore', () => {
  const root = '/footage';
  const ignore = makeIgnore(root, ['*.tmp.mov', 'exports/**', 'B-roll']);
  it('skips junk, hidden and editing-app cache folders by default', () => {
    for (const p of [
      '.DS_Store',
      '@eaDir/x.mp4',
      'a/Thumbs.db',
      '.Trashes/1.mp4',
      'proj/.cache/a.mp4',
      'CacheClip/a.mov',
      'Proxy Media/a.mov',
      'clip.mp4.part',
    ]) {
      expect(ignore(join(root, p))).toBe(true);
    }
    expect(ignore(join(root, 'day1/A001.mp4'))).toBe(false);
  });
  it('applies user globs', () => {
    expect(ignore(join(root, 'x/take.tmp.mov'))).toBe(true);
    expect(ignore(join(root, 'exports/final/a.mp4'))).toBe(true);
    expect(ignore(join(root, 'day1/B-roll/a.mp4'))).toBe(true);
    expect(ignore(join(root, 'day1/exports/a.mp4'))).toBe(false);
  });
});
