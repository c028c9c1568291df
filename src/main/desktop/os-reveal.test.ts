import { chmod, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { osReveal, revealCommand } from './os-reveal';

let dir: string;
let cleanup: () => Promise<void>;
const savedPath = process.env.PATH;
beforeEach(async () => ({ dir, cleanup } = await tempDir('reelsync-os-reveal-')));
afterEach(async () => {
  process.env.PATH = savedPath;
  await cleanup();
});

/** A real `xdg-open` on PATH that records its arguments and exits with `code`. */
async function opener(code: number): Promise<string> {
  const log = join(dir, 'opened.txt');
  const script = join(dir, 'xdg-open');
  await writeFile(script, `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\nexit ${code}\n`);
  await chmod(script, 0o755);
  process.env.PATH = `${dir}${delimiter}${savedPath ?? ''}`;
  return log;
}

describe('web mode reveal (the OS file manager)', () => {
  it('selects the file in Finder and Explorer, and opens the folder holding it on Linux, never the file', () => {
    expect(revealCommand('darwin', '/Users/ed/clips/a b.mov')).toEqual({
      command: 'open',
      args: ['-R', '/Users/ed/clips/a b.mov'],
      verbatim: false,
    });
    expect(revealCommand('win32', 'C:\\Clips\\a b.mov')).toEqual({
      command: 'explorer.exe',
      args: ['/select,"C:\\Clips\\a b.mov"'],
      verbatim: true,
    });
    expect(() => revealCommand('win32', 'C:\\a" /e,"b')).toThrow(/not a Windows path/);
    expect(revealCommand('linux', '/home/ed/Footage/day 1.mp4')).toEqual({
      command: 'xdg-open',
      args: ['/home/ed/Footage'],
      verbatim: false,
    });
  });

  it('runs xdg-open on the folder and says done', async () => {
    const log = await opener(0);
    const file = join(dir, 'Footage', 'day 1.mp4');
    expect(await osReveal('linux')(file)).toEqual({ done: true, detail: file });
    expect(await readFile(log, 'utf8')).toBe(`${join(dir, 'Footage')}\n`);
  });

  it('answers with the path when the opener fails or is missing', async () => {
    await opener(3);
    expect(await osReveal('linux')('/srv/a.mp4')).toEqual({
      done: false,
      detail:
        'No file manager could be opened here, so the file is not shown. It is at /srv/a.mp4 (xdg-open ended with code 3: no file manager is set up)',
    });
    process.env.PATH = join(dir, 'empty');
    const missing = await osReveal('linux')('/srv/a.mp4');
    expect(missing.done).toBe(false);
    expect(missing.detail).toMatch(
      /^No file manager could be opened here, so the file is not shown\. It is at \/srv\/a\.mp4 \(xdg-open could not run: .*ENOENT.*\)$/,
    );
  });
});
