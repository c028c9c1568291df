import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { openServiceDb, serviceDbFile } from '../storage/db';
import { MigrateRefusal, openSourceLibrary } from './source-library';

describe('openSourceLibrary: the library held alone for the copy', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  const library = async (): Promise<string> => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const data = join(dir, 'data');
    openServiceDb(data).close();
    return data;
  };

  it('refuses a folder without a library', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    expect(() => openSourceLibrary(dir)).toThrow(MigrateRefusal);
    expect(() => openSourceLibrary(dir)).toThrow(/no library in .*service\.db does not exist/);
  });

  it('refuses a library another connection has open (as the running service has)', async () => {
    const data = await library();
    const service = openServiceDb(data);
    try {
      expect(() => openSourceLibrary(data)).toThrow(/open in another process .*stop it, then run migrate-to again/);
    } finally {
      service.close();
    }
    openSourceLibrary(data).close();
  });

  it('while held, a service starting on the library cannot read it', async () => {
    const data = await library();
    const held = openSourceLibrary(data);
    const starting = new Database(serviceDbFile(data));
    try {
      starting.pragma('busy_timeout = 0');
      expect(() => starting.prepare('SELECT COUNT(*) AS n FROM accounts').get()).toThrow(/database is locked/);
    } finally {
      starting.close();
      held.close();
    }
  });
});
