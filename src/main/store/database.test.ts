import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NewerSchemaError, type Migration } from '../../shared/sqlite-migrate';
import { migrationsForCrashTest } from '../../../test/helpers/crash-migrations';
import { tempDir } from '../../../test/helpers/temp';
import { openDatabase } from './database';
import { clientMigrations } from './migrations';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const tables = (db: Database.Database): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

const v1: Migration = { version: 1, name: 'one', up: 'CREATE TABLE a (id INTEGER PRIMARY KEY) STRICT;' };
const v2: Migration = {
  version: 2,
  name: 'two',
  up: 'CREATE TABLE b (id INTEGER PRIMARY KEY, x TEXT NOT NULL) STRICT;',
};

describe('client database', () => {
  it('creates a fresh file in WAL mode at the latest schema version', () => {
    const db = openDatabase(join(dir, 'client.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(clientMigrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(tables(db)).toContain('settings');
    db.close();
  });

  it('upgrades an older database and keeps its rows', () => {
    const file = join(dir, 'up.db');
    const old = openDatabase(file, { migrations: [v1] });
    old.prepare('INSERT INTO a (id) VALUES (7)').run();
    old.close();
    const db = openDatabase(file, { migrations: [v1, v2] });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(tables(db)).toEqual(['a', 'b']);
    expect(db.prepare('SELECT id FROM a').get()).toEqual({ id: 7 });
    db.close();
  });

  it('creates STRICT tables that refuse wrongly typed values', () => {
    const db = openDatabase(join(dir, 'strict.db'), { migrations: [v1, v2] });
    expect(() => db.prepare('INSERT INTO b (id, x) VALUES (1, ?)').run(Buffer.from('no'))).toThrow(/cannot store BLOB/);
    db.close();
  });

  it('refuses a database written by a newer version and leaves it untouched', () => {
    const file = join(dir, 'newer.db');
    openDatabase(file, { migrations: [v1, v2] }).close();
    expect(() => openDatabase(file, { migrations: [v1] })).toThrow(NewerSchemaError);
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(2);
    raw.close();
  });

  it('rolls back a migration that throws: the old schema and version stay', () => {
    const file = join(dir, 'throw.db');
    openDatabase(file, { migrations: migrationsForCrashTest(() => {}).slice(0, 1) }).close();
    const failing = migrationsForCrashTest(() => {
      throw new Error('disk on fire');
    });
    expect(() => openDatabase(file, { migrations: failing })).toThrow('disk on fire');
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(raw)).toEqual(['items']);
    expect(raw.prepare('SELECT name FROM pragma_table_info(?)').all('items')).toHaveLength(2);
    raw.close();
  });

  it('keeps the old schema when the process is killed in the middle of a migration', async () => {
    const file = join(dir, 'crash.db');
    openDatabase(file, { migrations: migrationsForCrashTest(() => {}).slice(0, 1) }).close();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../../../test/helpers/migrate-and-hang.ts'), file],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('in-migration')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const db = openDatabase(file, { migrations: migrationsForCrashTest(() => {}).slice(0, 1) });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(db)).toEqual(['items']);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('rejects a migration list with a gap', () => {
    expect(() => openDatabase(join(dir, 'gap.db'), { migrations: [v1, { ...v2, version: 3 }] })).toThrow(/expected 2/);
  });
});
