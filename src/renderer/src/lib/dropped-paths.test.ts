import { describe, expect, it } from 'vitest';
import { droppedPaths, pathsFromText, typedPaths } from './dropped-paths';

describe('paths from text', () => {
  const text = 'file:///home/ed/Day%201\n/mnt/card\n\n# note\nfootage/day2\nfile:///C:/Shoot\n/mnt/card';
  it('keeps absolute paths and decoded file URIs from a drop, once each', () => {
    expect(pathsFromText(text)).toEqual(['/home/ed/Day 1', '/mnt/card', 'C:/Shoot']);
  });
  it('keeps typed relative paths too, for main to refuse with the reason', () => {
    expect(typedPaths(text)).toEqual(['/home/ed/Day 1', '/mnt/card', 'footage/day2', 'C:/Shoot']);
  });
});

describe('dropped paths', () => {
  it('takes every dropped file and folder path, then text paths, once each; nothing without a full path', () => {
    expect(
      droppedPaths(['/mnt/card/DCIM', '/home/ed/a.mp4', 'C:\\Shoot', ''], 'file:///home/ed/a.mp4\n/mnt/b'),
    ).toEqual(['/mnt/card/DCIM', '/home/ed/a.mp4', 'C:\\Shoot', '/mnt/b']);
    expect(droppedPaths([], '')).toEqual([]);
  });
});
