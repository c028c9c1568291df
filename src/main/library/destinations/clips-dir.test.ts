import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp';
import { openDatabase, type Db } from '../../store/database';
import { AppSettings } from '../../settings/app-settings';
import { DestinationPolicy } from './policy';

let dir: string;
let cleanup: () => Promise<void>;
let db: Db;
let policy: DestinationPolicy;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-clipsdir-'));
  dir = await realpath(dir);
  db = openDatabase(join(dir, 'client.db'));
  const data = join(dir, 'data');
  policy = new DestinationPolicy({
    dataDir: data,
    builtin: { clips: join(data, 'clips'), exports: join(data, 'exports'), downloads: join(data, 'downloads') },
    settings: new AppSettings(db),
    chooser: () => undefined,
  });
});

afterEach(async () => {
  db.close();
  await cleanup();
});

test('the clips folder: the built-in one, a folder inside an allowed root, refused outside, lost with its root', async () => {
  expect(policy.clipsDir()).toBe(join(dir, 'data', 'clips'));
  const edits = join(dir, 'Edits');
  await mkdir(edits);
  await expect(policy.setClipsDir(join(edits, 'clips'))).rejects.toThrow(/outside the folders Reelsync may write to/);
  expect(policy.clipsDir()).toBe(join(dir, 'data', 'clips'));
  await policy.setRoots([edits]);
  expect(await policy.setClipsDir(join(edits, 'clips'))).toBe(join(edits, 'clips'));
  await policy.setRoots([]);
  expect(policy.clipsDir()).toBe(join(dir, 'data', 'clips'));
  await policy.setRoots([edits]);
  expect(policy.clipsDir()).toBe(join(edits, 'clips'));
  expect(await policy.setClipsDir(null)).toBe(join(dir, 'data', 'clips'));
});
