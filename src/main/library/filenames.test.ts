import fc from 'fast-check';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { numbered, placeWithoutClobber, reserveName, safeJoin, sanitizeFileName } from './filenames';

describe('sanitizeFileName', () => {
  test.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['videos/VI1/clip.mp4', 'clip.mp4'],
    ['..', 'download'],
    ['', 'download'],
    ['CON', '_CON'],
    ['con.mp4', '_con.mp4'],
    ['LPT1.tar.gz', '_LPT1.tar.gz'],
    ['a<b>c:d"e|f?g*h.mp4', 'a_b_c_d_e_f_g_h.mp4'],
    ['name. . ', 'name'],
    ['.hidden', 'hidden'],
    ['evil\u202egnp.exe', 'evilgnp.exe'],
    ['tab\tname\n.mp4', 'tab_name_.mp4'],
  ])('%j -> %j', (raw, safe) => {
    expect(sanitizeFileName(raw)).toBe(safe);
  });

  test('any string gives one safe name inside the folder', () => {
    const root = resolve('/tmp/reelsync-root');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        const name = sanitizeFileName(raw);
        expect(name.length).toBeGreaterThan(0);
        expect(name).not.toMatch(/[/\\<>:"|?*]/);
        expect(name === '.' || name === '..').toBe(false);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
        expect(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(name)).toBe(false);
        const target = safeJoin(root, name);
        expect(relative(root, target).includes(sep)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  test('safeJoin refuses names that leave the folder', () => {
    for (const bad of ['..', '../x', 'a/b', '/etc/passwd', '']) expect(() => safeJoin('/tmp/x', bad)).toThrow();
  });
});

describe('no clobbering', () => {
  test('numbered names, exclusive reservation and placement never overwrite', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      expect(numbered('a.mp4', 0)).toBe('a.mp4');
      expect(numbered('a.mp4', 2)).toBe('a (2).mp4');
      await writeFile(join(dir, 'a.mp4'), 'keep');
      const reserved = await reserveName(dir, 'a.mp4');
      expect(reserved).toBe(join(dir, 'a (1).mp4'));
      await mkdir(join(dir, 'src'));
      await writeFile(join(dir, 'src', 'part'), 'new');
      const placed = await placeWithoutClobber(join(dir, 'src', 'part'), dir, 'a.mp4');
      expect(placed).toBe(join(dir, 'a (2).mp4'));
      expect(await readFile(join(dir, 'a.mp4'), 'utf8')).toBe('keep');
      expect(await readFile(placed, 'utf8')).toBe('new');
      expect(await readdir(join(dir, 'src'))).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});
