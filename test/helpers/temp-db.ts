import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type Db } from '../../src/main/store/database';
import { tempDir } from './temp';

/** A fresh client database in a fresh folder for each test of the file: read `db` and `dir` inside the tests. */
export function useTempClientDb(): { readonly db: Db; readonly dir: string } {
  let current: { db: Db; dir: string; cleanup: () => Promise<void> } | undefined;
  beforeEach(async () => {
    const { dir, cleanup } = await tempDir();
    current = { db: openDatabase(join(dir, 'c.db')), dir, cleanup };
  });
  afterEach(async () => {
    current?.db.close();
    await current?.cleanup();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('useTempClientDb: read db and dir inside a test');
    return current;
  };
  return {
    get db() {
      return now().db;
    },
    get dir() {
      return now().dir;
    },
  };
}
