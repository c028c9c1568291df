import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUiApp, type RunningUiApp } from '../helpers/ui-app';
import { tempDir } from '../helpers/temp';

/**
 * Issue 14 item 6, as an attacker holding the web token would try it: every write goes through the web mode's HTTP
 * transport, and the destination policy must refuse every place the user did not allow, writing nothing.
 */
let running: RunningUiApp;
let outside: string;
let cleanupOutside: () => Promise<void>;

beforeAll(async () => {
  running = await startUiApp();
  ({ dir: outside, cleanup: cleanupOutside } = await tempDir('reelsync-outside-'));
}, 60_000);
afterAll(async () => {
  await running?.stop();
  await cleanupOutside?.();
});

type Answer = { ok: true; value: Record<string, unknown> } | { ok: false; error: { code: string; message: string } };

async function rpc(channel: string, body: unknown): Promise<Answer> {
  const res = await request(`${running.web.origin}/api/rpc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-reelsync-token': running.web.token },
    body: JSON.stringify(body),
  });
  return (await res.body.json()) as Answer;
}

async function refused(channel: string, body: unknown, code = 'forbidden'): Promise<string> {
  const answer = await rpc(channel, body);
  expect(answer.ok, `${channel} ${JSON.stringify(body)} was accepted`).toBe(false);
  if (answer.ok) return '';
  expect(answer.error.code).toBe(code);
  return answer.error.message;
}

const exportsDir = (): string => join(running.dataDir, 'exports');
const modeOf = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;

describe('writes a web token holder cannot make', () => {
  it('clips:export refuses shell start-up files, paths outside the roots, traversal, symlinked folders and overwrites', async () => {
    const saved = await rpc('clips:save', {
      videoNo: 'V-1',
      start: 0,
      end: 1,
      notes: '$(touch /tmp/reelsync-pwned)',
      tags: ['=HYPERLINK("x")'],
    });
    expect(saved.ok).toBe(true);
    for (const notes of ['+1+1', '-2-2', '@SUM(A1)', '\tcmd', '\rcmd'])
      expect((await rpc('clips:save', { videoNo: 'V-2', start: 0, end: 1, notes })).ok).toBe(true);
    const bashrc = join(outside, '.bashrc');
    await refused('clips:export', { format: 'csv', file: bashrc });
    await refused('clips:export', { format: 'csv', file: join(outside, 'x', '.bashrc') });
    await refused('clips:export', { format: 'csv', file: join(outside, 'markers.csv') });
    await refused('clips:export', {
      format: 'csv',
      file: `${exportsDir()}/../../../${outside.split('/').pop() ?? ''}/m.csv`,
    });
    await refused('clips:export', { format: 'csv', file: join(exportsDir(), '.bashrc') });
    await refused('clips:export', { format: 'csv', file: join(exportsDir(), 'run.sh') });
    await refused('clips:export', { format: 'csv', file: 'relative.csv' });
    await mkdir(exportsDir(), { recursive: true });
    await symlink(outside, join(exportsDir(), 'link'));
    await refused('clips:export', { format: 'csv', file: join(exportsDir(), 'link', 'm.csv') });
    await refused('clips:export', { format: 'csv', fileGrant: 'A'.repeat(24) });
    expect(await readdir(outside)).toEqual([]);
  });

  it('clips:save outDir and downloads:start destDir outside the roots are refused and leave no row', async () => {
    const before = await rpc('clips:list', {});
    await refused('clips:save', { videoNo: 'V-1', start: 0, end: 1, outDir: outside });
    await refused('clips:save', { videoNo: 'V-1', start: 0, end: 1, outDir: '/etc' });
    await refused('clips:save', { videoNo: 'V-1', start: 0, end: 1, outDirGrant: 'B'.repeat(24) });
    const after = await rpc('clips:list', {});
    expect(after.ok && after.value.total).toBe(before.ok && before.value.total);
    await refused('downloads:start', { bucket: 'b', blob: 'keyframes/x.jpg', kind: 'keyframe', destDir: '/etc' });
    await refused('downloads:start', {
      bucket: 'b',
      blob: 'keyframes/x.jpg',
      kind: 'keyframe',
      destDir: join(outside, 'dl'),
    });
    await refused('downloads:start', {
      bucket: 'b',
      blob: 'keyframes/x.jpg',
      kind: 'keyframe',
      destDir: join(running.dataDir, 'downloads', '..', '..'),
    });
    const downloads = await rpc('downloads:list', {});
    expect(downloads.ok && downloads.value.downloads).toEqual([]);
    expect(existsSync(join(outside, 'dl'))).toBe(false);
  });

  it('folders:add and sync:add-paths refuse system folders, the home folder, the data folder and links to them', async () => {
    await symlink('/', join(outside, 'root-link'));
    for (const path of [
      '/',
      '/etc',
      '/usr/lib',
      '/proc',
      homedir(),
      running.dataDir,
      join(running.dataDir, 'clips'),
      join(running.dataDir, '..'),
      join(outside, 'root-link'),
    ]) {
      const message = await refused('folders:add', { path });
      expect(message).toMatch(/^not watched: /);
    }
    const dropped = await rpc('sync:add-paths', { paths: ['/etc', join(outside, 'root-link')] });
    expect(dropped.ok && (dropped.value.results as { outcome: string }[]).map((r) => r.outcome)).toEqual([
      'rejected',
      'rejected',
    ]);
    const folders = await rpc('folders:list', {});
    expect(folders.ok && folders.value.folders).toEqual([]);
  });

  it('destinations:set-roots refuses system, hidden, home and data folders', async () => {
    await mkdir(join(outside, '.config'), { recursive: true });
    await refused('destinations:set-roots', { paths: ['/'] }, 'bad_request');
    for (const path of [
      '/etc',
      '/usr/local',
      homedir(),
      join(outside, '.config'),
      running.dataDir,
      '/tmp',
      join(outside, 'missing'),
    ])
      await refused('destinations:set-roots', { paths: [path] });
    const roots = await rpc('destinations:roots', {});
    expect(roots.ok && (roots.value.roots as { builtin: boolean }[]).every((r) => r.builtin)).toBe(true);
    expect(roots.ok && roots.value.dialog).toBe(false);
    await refused('destinations:choose', { purpose: 'export' }, 'bad_request');
  });
});

describe('writes the user allowed', () => {
  it('exports into an allowed root, 0644, every CSV cell quoted and formulas neutralised; never destroys', async () => {
    const file = join(exportsDir(), 'markers.csv');
    const first = await rpc('clips:export', { format: 'csv', file });
    expect(first.ok && first.value.file).toBe(file);
    expect(await modeOf(file)).toBe(0o644);
    const csv = await readFile(file, 'utf8');
    expect(csv).toContain('"$(touch /tmp/reelsync-pwned)"');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    for (const cell of ["'+1+1", "'-2-2", "'@SUM(A1)", "'\tcmd", "'\rcmd"]) expect(csv).toContain(`"${cell}"`);
    for (const line of csv
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n'))
      expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);

    await writeFile(file, 'mine');
    const again = await refused('clips:export', { format: 'csv', file }, 'file_exists');
    expect(again).toContain('already exists');
    expect(await readFile(file, 'utf8')).toBe('mine');
    const renamed = await rpc('clips:export', { format: 'csv', file, onExists: 'rename' });
    expect(renamed.ok && renamed.value.file).toBe(join(exportsDir(), 'markers (1).csv'));
    expect(await readFile(file, 'utf8')).toBe('mine');
    // Replace by a typed path writes the export and keeps what it replaces beside it: nothing is lost.
    const replaced = await rpc('clips:export', { format: 'csv', file, onExists: 'replace' });
    expect(replaced.ok && replaced.value.file).toBe(file);
    expect(await readFile(file, 'utf8')).toContain('"$(touch /tmp/reelsync-pwned)"');
    expect(await readFile(join(exportsDir(), 'markers (replaced).csv'), 'utf8')).toBe('mine');

    const victim = join(outside, 'victim.txt');
    await writeFile(victim, 'keep');
    await symlink(victim, join(exportsDir(), 'planted.csv'));
    await refused('clips:export', { format: 'csv', file: join(exportsDir(), 'planted.csv') }, 'file_exists');
    const planted = { format: 'csv', file: join(exportsDir(), 'planted.csv'), onExists: 'replace' } as const;
    expect(await refused('clips:export', planted, 'file_exists')).toContain('is not a plain file');
    expect(await readFile(victim, 'utf8')).toBe('keep');
  });

  it('a folder configured in Settings becomes a root: exports, clips and downloads go there', async () => {
    const shared = join(outside, 'Edits');
    await mkdir(shared);
    const roots = await rpc('destinations:set-roots', { paths: [shared] });
    expect(roots.ok && (roots.value.roots as { path: string }[]).map((r) => r.path)).toContain(shared);
    const written = await rpc('clips:export', { format: 'edl', frameRate: '25', file: join(shared, 'cut.edl') });
    expect(written.ok && written.value.file).toBe(join(shared, 'cut.edl'));
    expect(await readFile(join(shared, 'cut.edl'), 'utf8')).toMatch(/^TITLE: /);
    const clip = await rpc('clips:save', { videoNo: 'V-1', start: 0, end: 1, outDir: join(shared, 'clips') });
    expect(clip.ok).toBe(true);
    const download = await rpc('downloads:start', {
      bucket: 'b',
      blob: 'keyframes/x.jpg',
      kind: 'keyframe',
      destDir: join(shared, 'stills'),
    });
    expect(download.ok && download.value.destDir).toBe(join(shared, 'stills'));
    expect((await stat(join(shared, 'stills'))).isDirectory()).toBe(true);
  });
});
