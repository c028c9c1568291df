import { execFile } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { bundledToolPath, findOnPath, resolveMediaTool, toolPreference, unpackedPath } from './tools';

const run = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
/** Real executables in three places: an explicit path, a bundled package's folder, a PATH folder. */
let explicit: string;
let bundled: string;
let pathDir: string;

async function executable(file: string, mode = 0o755): Promise<string> {
  await writeFile(file, '#!/bin/sh\necho "$0"\n');
  await chmod(file, mode);
  return file;
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-tools-'));
  for (const sub of ['own', 'bundled', 'bin', 'empty']) await mkdir(join(dir, sub));
  explicit = await executable(join(dir, 'own', 'my-ffmpeg'));
  bundled = await executable(join(dir, 'bundled', 'ffmpeg'));
  pathDir = join(dir, 'bin');
  await executable(join(pathDir, 'ffmpeg'));
  await executable(join(pathDir, 'ffprobe'), 0o644);
});
afterAll(async () => cleanup());

describe('resolveMediaTool', () => {
  it('takes REELSYNC_FFMPEG first, whatever the preference', () => {
    for (const preference of ['bundled', 'system'] as const) {
      expect(
        resolveMediaTool('ffmpeg', { env: { REELSYNC_FFMPEG: explicit, PATH: pathDir }, preference, bundled }),
      ).toEqual({ file: explicit, source: 'env' });
    }
  });

  it('refuses a REELSYNC_FFMPEG that is not an executable file, instead of falling back silently', () => {
    expect(() =>
      resolveMediaTool('ffmpeg', {
        env: { REELSYNC_FFMPEG: join(dir, 'own'), PATH: pathDir },
        preference: 'system',
        bundled,
      }),
    ).toThrow(/REELSYNC_FFMPEG=.* is not an executable/);
  });

  it('a packaged app (bundled preference): the bundled binary, then PATH', () => {
    expect(resolveMediaTool('ffmpeg', { env: { PATH: pathDir }, preference: 'bundled', bundled })).toEqual({
      file: bundled,
      source: 'bundled',
    });
    expect(resolveMediaTool('ffmpeg', { env: { PATH: pathDir }, preference: 'bundled', bundled: null })).toEqual({
      file: join(pathDir, 'ffmpeg'),
      source: 'path',
    });
    expect(
      resolveMediaTool('ffmpeg', {
        env: { PATH: pathDir },
        preference: 'bundled',
        bundled: join(dir, 'bundled', 'missing'),
      }),
    ).toEqual({ file: join(pathDir, 'ffmpeg'), source: 'path' });
  });

  it('a development tree or CI (system preference): PATH, then the bundled binary', () => {
    expect(resolveMediaTool('ffmpeg', { env: { PATH: pathDir }, preference: 'system', bundled })).toEqual({
      file: join(pathDir, 'ffmpeg'),
      source: 'path',
    });
    const noFfmpeg = [join(dir, 'empty'), join(dir, 'nowhere')].join(delimiter);
    expect(resolveMediaTool('ffmpeg', { env: { PATH: noFfmpeg }, preference: 'system', bundled })).toEqual({
      file: bundled,
      source: 'bundled',
    });
  });

  it('skips files on PATH that are not executable, and leaves the bare name when nothing is found', () => {
    expect(findOnPath('ffprobe', { PATH: pathDir })).toBeNull();
    expect(resolveMediaTool('ffprobe', { env: { PATH: pathDir }, preference: 'system', bundled: null })).toEqual({
      file: 'ffprobe',
      source: 'unresolved',
    });
  });
});

describe('the preference', () => {
  it('is bundled inside app.asar, system elsewhere, and REELSYNC_MEDIA_TOOLS overrides both', () => {
    const inAsar = ['', 'opt', 'Reelsync', 'resources', 'app.asar', 'out', 'service', 'cli.js'].join(sep);
    expect(toolPreference({}, inAsar)).toBe('bundled');
    expect(toolPreference({}, join(dir, 'out', 'service', 'cli.js'))).toBe('system');
    expect(toolPreference({ REELSYNC_MEDIA_TOOLS: 'system' }, inAsar)).toBe('system');
    expect(toolPreference({ REELSYNC_MEDIA_TOOLS: 'bundled' }, join(dir, 'cli.js'))).toBe('bundled');
    expect(() => toolPreference({ REELSYNC_MEDIA_TOOLS: 'debian' })).toThrow(/"bundled" or "system"/);
  });

  it('maps a binary inside app.asar to app.asar.unpacked, where asarUnpack puts it', () => {
    expect(unpackedPath(`${sep}x${sep}app.asar${sep}node_modules${sep}ffmpeg`)).toBe(
      `${sep}x${sep}app.asar.unpacked${sep}node_modules${sep}ffmpeg`,
    );
  });
});

describe('the bundled binaries of this platform', () => {
  it('are installed and run', async () => {
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      const file = bundledToolPath(tool);
      expect(file, tool).toContain(`@${tool}-installer${sep}${process.platform}-${process.arch}`);
      const { stdout } = await run(file ?? tool, ['-version']);
      expect(stdout).toContain(`${tool} version`);
    }
  });

  it('are null for a platform whose package is not installed', () => {
    expect(bundledToolPath('ffmpeg', 'win32', 'x64')).toBeNull();
  });
});
