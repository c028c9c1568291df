import { afterEach, beforeEach } from 'vitest';
import { z } from 'zod';
import { openServiceDb } from '../../src/server/storage/db';
import type { NewVideo } from '../../src/server/library/videos';
import type { Sql } from '../../src/server/storage/sql';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { tempDir } from './temp';

/** One engine the service's stores run on, opened fresh (migrated, empty) for each test. */
export interface StoreEngine {
  name: 'sqlite' | 'postgres';
  open(): Promise<{ sql: Sql; close: () => Promise<void> }>;
}

const sqliteEngine: StoreEngine = {
  name: 'sqlite',
  async open() {
    const { dir, cleanup } = await tempDir();
    const db = openServiceDb(dir);
    return {
      sql: new SqliteSql(db),
      close: async () => {
        db.close();
        await cleanup();
      },
    };
  },
};

/** The engines every store test runs on (`describe.each(STORE_ENGINES)`). */
export const STORE_ENGINES: StoreEngine[] = [sqliteEngine];

/** A fresh database of `engine` for each test of the describe block: read `sql` inside the tests. */
export function useStoreDb(engine: StoreEngine): { readonly sql: Sql; account(name?: string): Promise<number> } {
  let current: { sql: Sql; close: () => Promise<void> } | undefined;
  beforeEach(async () => {
    current = await engine.open();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const sql = (): Sql => {
    if (!current) throw new Error('useStoreDb: read sql inside a test');
    return current.sql;
  };
  let accounts = 0;
  return {
    get sql() {
      return sql();
    },
    /** A new account row (the stores' rows all belong to one). */
    async account(name = `account-${++accounts}`) {
      const row = await sql().get(
        "INSERT INTO accounts (name, webhook_secret, created_at) VALUES (?, 'secret', ?) RETURNING id",
        name,
        Date.now(),
      );
      return z.object({ id: z.number().int() }).parse(row).id;
    },
  };
}

/** A video to insert with `Videos.insert`: a stored 12.5 s H.264 clip in `folderId`, no capture details or tags. */
export function newVideo(accountId: number, folderId: number, over: Partial<NewVideo> = {}): NewVideo {
  const names = { videoName: 'clip.mp4', originalName: 'clip.mp4', bucket: `reelsync-${accountId}` };
  const file = { blob: 'videos/x/clip.mp4', contentType: 'video/mp4', size: 1000, sha256: 'ab' };
  const media = { duration: 12.5, width: 640, height: 360, fps: 25, codec: 'h264' };
  const details = { datetimeTaken: null, cameraModel: null, latitude: null, longitude: null, callback: null };
  const options = { retainOriginal: true, transcriptionPrompt: null, tags: [] };
  return { accountId, folderId, ...names, ...file, ...media, ...details, ...options, ...over };
}
