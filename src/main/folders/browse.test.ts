import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSE_LIMIT } from '../../shared/contract/browse';
import { AppError } from '../../shared/errors';
import { tempDir } from '../../../test/helpers/temp';
import { browseFolder, plainError } from './browse';

let root: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('reelsync-browse-'));
  for (const d of ['Day 10', 'Day 2', 'day 1', '.cache', 'A001/clips'])
    await mkdir(join(root, 'shoot', d), { recursive: true });
  await writeFile(join(root, 'shoot', 'notes.txt'), 'a file, never listed');
  await symlink(join(root, 'shoot', 'Day 2'), join(root, 'shoot', 'linked day'));
  await symlink(join(root, 'shoot', 'gone'), join(root, 'shoot', 'dangling'));
  await symlink(join(root, 'loop-b'), join(root, 'loop-a'));
  await symlink(join(root, 'loop-a'), join(root, 'loop-b'));
});
afterAll(() => cleanup());

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => (err instanceof AppError ? { code: err.code, message: err.message } : err),
  );

describe('browseFolder', () => {
  it('lists sub-folder names only, sorted as a file manager does, hidden ones when asked', async () => {
    const shoot = join(root, 'shoot');
    const a = await browseFolder(shoot, { hidden: false });
    expect(a.folders).toEqual(['A001', 'day 1', 'Day 2', 'Day 10', 'linked day']);
    expect(a).toMatchObject({ path: shoot, parent: root, more: 0 });
    expect(JSON.stringify(a)).not.toContain('notes.txt');
    expect((await browseFolder(shoot, { hidden: true })).folders).toContain('.cache');
    // The answer names the real path: a link to a folder lists the folder it leads to.
    expect((await browseFolder(join(shoot, 'linked day'), { hidden: false })).path).toBe(join(shoot, 'Day 2'));
  });

  it('starts at home, and offers home and the root as places', async () => {
    const a = await browseFolder(undefined, { hidden: false });
    expect(a.places.slice(0, 2)).toEqual([
      { label: 'Home', path: homedir(), kind: 'home' },
      { label: 'Computer', path: '/', kind: 'root' },
    ]);
    expect((await browseFolder('/', { hidden: false })).parent).toBeNull();
  });

  it('answers a vanished folder, a file, and a loop of links in plain words', async () => {
    expect(await refusal(browseFolder(join(root, 'gone'), { hidden: false }))).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('There is no folder') as string,
    });
    expect(await refusal(browseFolder(join(root, 'shoot', 'notes.txt'), { hidden: false }))).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('is a file, not a folder') as string,
    });
    expect(await refusal(browseFolder(join(root, 'loop-a'), { hidden: false }))).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('loop of symbolic links') as string,
    });
  });

  it('says an unreadable folder is not allowed (the errno as the disk gives it: tests run as root here)', () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    expect(plainError(denied, '/srv/locked')).toMatchObject({
      code: 'forbidden',
      message: 'Reelsync is not allowed to read the folder “locked” (/srv/locked)',
    });
  });

  it(`lists ${BROWSE_LIMIT} sub-folders at most and counts the rest`, async () => {
    const many = join(root, 'many');
    await Promise.all(
      Array.from({ length: BROWSE_LIMIT + 5 }, (_, i) => mkdir(join(many, `f${i}`), { recursive: true })),
    );
    const a = await browseFolder(many, { hidden: false });
    expect(a.folders).toHaveLength(BROWSE_LIMIT);
    expect(a.more).toBe(5);
    await rm(many, { recursive: true });
  });
});
