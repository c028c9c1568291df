import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { indexSegmentPg } from '../../src/server/search/pg/pg-segment-index';
import { SearchCache } from '../../src/server/search/sqlite/search-cache';
import { indexSegment } from '../../src/server/search/sqlite/fts-index';
import { openServiceDb, type Db } from '../../src/server/storage/db';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import type { PgSql } from '../../src/server/storage/pg-sql';
import type { Sql } from '../../src/server/storage/sql';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { startPostgres } from './postgres';
import { tempDir } from './temp';

/** One segment as the indexer writes it: what it shows and says, and its labels (descriptors). */
export interface SeedSegment {
  caption: string;
  transcript?: string;
  ocrText?: string;
  labels?: { label: string; source: string; score?: number }[];
  /** The keyframe's measured picture quality (segments.shot_quality); NULL (as before migration 20) when left out. */
  shotQuality?: number;
}

export interface SeedVideo {
  name: string;
  folder: string;
  cameraModel?: string;
  takenAt?: string;
  place?: { latitude: number; longitude: number };
  tags?: string[];
  segments: SeedSegment[];
}

export interface Seeded {
  accountId: number;
  folders: Map<string, number>;
  /** video name -> video_no */
  videoNos: Map<string, string>;
  /** `${video name}#${segment index}` -> segment id */
  segments: Map<string, number>;
}

const idRow = z.object({ id: z.number() });

/**
 * Writes an account's videos and segments through the portable SQL, then indexes each segment with its engine's own
 * index writer (as persist-index does): FTS5 tables on SQLite (`cache` given), segment_search on PostgreSQL.
 */
export async function seedLibrary(
  sql: Sql,
  cache: SearchCache | undefined,
  account: string,
  videos: readonly SeedVideo[],
): Promise<Seeded> {
  const now = 1_700_000_000_000;
  const insert = async (text: string, ...params: (string | number | null)[]): Promise<number> =>
    idRow.parse(await sql.get(`${text} RETURNING id`, ...params)).id;
  const accountId = await insert(
    "INSERT INTO accounts (name, webhook_secret, created_at) VALUES (?, 'secret', ?)",
    account,
    now,
  );
  const seeded: Seeded = { accountId, folders: new Map(), videoNos: new Map(), segments: new Map() };
  for (const [n, v] of videos.entries()) {
    let folderId = seeded.folders.get(v.folder);
    if (folderId === undefined) {
      folderId = await insert(
        'INSERT INTO folders (account_id, name, created_at) VALUES (?, ?, ?)',
        accountId,
        v.folder,
        now,
      );
      seeded.folders.set(v.folder, folderId);
    }
    const videoNo = `${account}-v${n}`;
    const videoId = await insert(
      `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size,
         sha256, created_at, camera_model, datetime_taken, latitude, longitude)
       VALUES (?, ?, ?, ?, ?, 'PARSE', 'bucket', 'video/mp4', 1, 'x', ?, ?, ?, ?, ?)`,
      videoNo,
      accountId,
      folderId,
      v.name,
      v.name,
      now,
      v.cameraModel ?? null,
      v.takenAt ?? null,
      v.place?.latitude ?? null,
      v.place?.longitude ?? null,
    );
    seeded.videoNos.set(v.name, videoNo);
    for (const [i, tag] of (v.tags ?? []).entries())
      await sql.run('INSERT INTO video_tags (video_id, tag, position) VALUES (?, ?, ?)', videoId, tag, i);
    const names = [v.name, v.name.replace(/[._-]+/g, ' '), v.folder, v.cameraModel ?? '', ...(v.tags ?? [])].join(' ');
    for (const [idx, s] of v.segments.entries()) {
      const labels = s.labels ?? [];
      // The column only when a quality is given: some tests seed a database migrated only part of the way.
      const quality = s.shotQuality === undefined ? [] : [s.shotQuality];
      const segmentId = await insert(
        `INSERT INTO segments (video_id, idx, start_time, end_time, caption, transcript, ocr_text, labels${quality.length ? ', shot_quality' : ''})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?${quality.length ? ', ?' : ''})`,
        videoId,
        idx,
        idx * 5,
        idx * 5 + 5,
        s.caption,
        s.transcript ?? '',
        s.ocrText ?? '',
        JSON.stringify(labels),
        ...quality,
      );
      seeded.segments.set(`${v.name}#${idx}`, segmentId);
      const text = {
        caption: s.caption,
        transcript: s.transcript ?? '',
        ocrText: s.ocrText ?? '',
        labels: labels.map((l) => l.label).join(' '),
        names,
      };
      if (cache) indexSegment(cache, accountId, segmentId, text);
      else await indexSegmentPg(sql, accountId, segmentId, text);
    }
  }
  return seeded;
}

export interface BothDatabases {
  pg: PgSql;
  /** A service data folder's SQLite database, its portable SQL and its FTS5 cache. */
  db: Db;
  lite: SqliteSql;
  cache: SearchCache;
}

/**
 * A throwaway PostgreSQL database and a service SQLite database side by side, migrated, opened before the file's
 * tests (its own beforeAll hooks run after, and may seed them) and closed after them.
 */
export function useBothDatabases(): () => BothDatabases {
  let both: BothDatabases | undefined;
  let close = async (): Promise<void> => {};
  beforeAll(async () => {
    const server = await startPostgres();
    const pg = await openPgSql(await server.createDatabase());
    const dir = await tempDir();
    const db = openServiceDb(join(dir.dir, 'data'));
    both = { pg, db, lite: new SqliteSql(db), cache: new SearchCache(db) };
    close = async () => {
      db.close();
      await pg.close();
      await server.stop();
      await dir.cleanup();
    };
  }, 120_000);
  afterAll(() => close());
  return () => {
    if (!both) throw new Error("useBothDatabases: used outside its file's tests");
    return both;
  };
}
