import { z } from 'zod';
import { FILE_STATUSES, type FileSort, type FileStatus } from '../../shared/contract/sync';
import { unreachable } from '../../shared/errors';
import type { Db } from './database';
import {
  CONTENT_STATES,
  contentRowSchema,
  FILE_STATES,
  fileRowSchema,
  watchFolderRowSchema,
  type ContentRow,
  type ContentState,
  type FileMedia,
  type FileRow,
  type FileState,
  type PollingMode,
  type UploadMeta,
  type WatchFolderRow,
} from './sync-rows';

/** The file name after the last separator, lower-cased: strip everything up to it with rtrim's character-set trick. */
const NAME_EXPRESSION = "lower(replace(path, rtrim(path, replace(replace(path, '\\', '/'), '/', '')), ''))";

/** A LIKE pattern matching `text` anywhere, its own %, _ and \ taken literally (used with ESCAPE '\'). */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Each sortable column maps to one fixed SQL expression (never interpolated from input). */
function sortExpression(sort: FileSort): string {
  switch (sort) {
    case 'added':
      return 'id';
    case 'name':
      return NAME_EXPRESSION;
    case 'duration':
      return 'duration';
    case 'resolution':
      return 'width * height';
    case 'fps':
      return 'fps';
    case 'codec':
      return 'codec';
    case 'camera':
      return 'lower(camera)';
    case 'taken':
      return 'taken_at';
    case 'size':
      return 'size';
    case 'status':
      return 'state';
    default:
      throw unreachable(sort);
  }
}

export interface FilesQuery {
  state?: FileState;
  codec?: string;
  camera?: string;
  /** A part of the file name, matched literally (LIKE wildcards in it are escaped). */
  name?: string;
  sort?: FileSort;
  desc?: boolean;
}

const statusCountRow = z.object({ status: z.enum(FILE_STATUSES), n: z.number().int() });

export type RecordOutcome = 'new' | 'changed' | 'unchanged';

/** Typed queries over watch_folders, files and contents. */
export class SyncStore {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- watch folders
  addWatchFolder(input: {
    path: string;
    folderId: number | null;
    folderName: string | null;
    tags: string[];
    ignore: string[];
    polling: PollingMode;
  }): WatchFolderRow {
    const row = this.db
      .prepare(
        `INSERT INTO watch_folders (path, folder_id, folder_name, tags, ignore, polling, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET folder_id = excluded.folder_id, folder_name = excluded.folder_name, tags = excluded.tags,
           ignore = excluded.ignore, polling = excluded.polling, stopped_at = NULL
         RETURNING *`,
      )
      .get(
        input.path,
        input.folderId,
        input.folderName,
        JSON.stringify(input.tags),
        JSON.stringify(input.ignore),
        input.polling,
        Date.now(),
      );
    return watchFolderRowSchema.parse(row);
  }

  setWatchFolderId(id: number, folderId: number): void {
    this.db.prepare('UPDATE watch_folders SET folder_id = ? WHERE id = ?').run(folderId, id);
  }

  /** Stops watching: the row and its files stay (nothing leaves the library). False when not watched. */
  stopWatchFolder(id: number, now = Date.now()): boolean {
    return (
      this.db.prepare('UPDATE watch_folders SET stopped_at = ? WHERE id = ? AND stopped_at IS NULL').run(now, id)
        .changes > 0
    );
  }

  /** Watches a stopped folder again; undefined when there is no such folder. */
  resumeWatchFolder(id: number): WatchFolderRow | undefined {
    const row = this.db.prepare('UPDATE watch_folders SET stopped_at = NULL WHERE id = ? RETURNING *').get(id);
    return row ? watchFolderRowSchema.parse(row) : undefined;
  }

  watchFolders(): WatchFolderRow[] {
    return this.db
      .prepare('SELECT * FROM watch_folders ORDER BY id')
      .all()
      .map((r) => watchFolderRowSchema.parse(r));
  }

  watchFolder(id: number): WatchFolderRow | undefined {
    const row = this.db.prepare('SELECT * FROM watch_folders WHERE id = ?').get(id);
    return row ? watchFolderRowSchema.parse(row) : undefined;
  }

  // ---- files
  /** Records one observation of a file. 'unchanged' when size and mtime match the last observation of a live row. */
  recordFile(
    watchId: number,
    path: string,
    size: number,
    mtimeMs: number,
    scan: number,
    now = Date.now(),
  ): { outcome: RecordOutcome; id: number } {
    const existing = this.db
      .prepare('SELECT id, size, mtime_ms, state, watch_id FROM files WHERE path = ?')
      .get(path) as { id: number; size: number; mtime_ms: number; state: FileState; watch_id: number } | undefined;
    const mtime = Math.trunc(mtimeMs);
    if (!existing) {
      const row = this.db
        .prepare(
          `INSERT INTO files (watch_id, path, size, mtime_ms, observed_at, state, seen_scan, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?) RETURNING id`,
        )
        .get(watchId, path, size, mtime, now, scan, now) as { id: number };
      return { outcome: 'new', id: row.id };
    }
    if (existing.size === size && existing.mtime_ms === mtime && existing.state !== 'deleted') {
      if (scan > 0)
        this.db.prepare('UPDATE files SET seen_scan = ?, watch_id = ? WHERE id = ?').run(scan, watchId, existing.id);
      return { outcome: 'unchanged', id: existing.id };
    }
    this.db
      .prepare(
        `UPDATE files SET watch_id = ?, size = ?, mtime_ms = ?, observed_at = ?, state = 'pending', reason = NULL,
           seen_scan = MAX(seen_scan, ?), updated_at = ? WHERE id = ?`,
      )
      .run(watchId, size, mtime, now, scan, now, existing.id);
    return { outcome: 'changed', id: existing.id };
  }

  /** Files of a watch folder not seen by scan `scan` (gone from disk): marked deleted; returns them. */
  markUnseenDeleted(watchId: number, scan: number): FileRow[] {
    return this.db
      .prepare(
        `UPDATE files SET state = 'deleted', updated_at = ? WHERE watch_id = ? AND seen_scan < ? AND state != 'deleted' RETURNING *`,
      )
      .all(Date.now(), watchId, scan)
      .map((r) => fileRowSchema.parse(r));
  }

  markDeleted(path: string): FileRow | undefined {
    const row = this.db
      .prepare(`UPDATE files SET state = 'deleted', updated_at = ? WHERE path = ? AND state != 'deleted' RETURNING *`)
      .get(Date.now(), path);
    return row ? fileRowSchema.parse(row) : undefined;
  }

  /**
   * Rows left `deleted` whose content a live file now holds: the file was renamed or moved (within the watched folders),
   * or one of two copies went. The row that holds it is the file; these would be ghosts of old names. Returns their ids.
   */
  dropMovedGhosts(hash: string): number[] {
    return (
      this.db
        .prepare(
          `DELETE FROM files WHERE hash = ? AND state = 'deleted'
             AND EXISTS (SELECT 1 FROM files l WHERE l.hash = ? AND l.state = 'linked') RETURNING id`,
        )
        .all(hash, hash) as { id: number }[]
    ).map((r) => r.id);
  }

  /** Forgets one file row (a deleted file whose content never reached the library). */
  deleteFile(id: number): boolean {
    return this.db.prepare('DELETE FROM files WHERE id = ?').run(id).changes > 0;
  }

  file(id: number): FileRow | undefined {
    const row = this.db.prepare('SELECT * FROM files WHERE id = ?').get(id);
    return row ? fileRowSchema.parse(row) : undefined;
  }

  fileByPath(path: string): FileRow | undefined {
    const row = this.db.prepare('SELECT * FROM files WHERE path = ?').get(path);
    return row ? fileRowSchema.parse(row) : undefined;
  }

  /** A new observation of size/mtime while examining (file still changing). */
  observe(id: number, size: number, mtimeMs: number, now = Date.now()): void {
    this.db
      .prepare('UPDATE files SET size = ?, mtime_ms = ?, observed_at = ?, updated_at = ? WHERE id = ?')
      .run(size, Math.trunc(mtimeMs), now, now, id);
  }

  setFileState(id: number, state: FileState, reason: string | null): void {
    this.db
      .prepare('UPDATE files SET state = ?, reason = ?, updated_at = ? WHERE id = ?')
      .run(state, reason, Date.now(), id);
  }

  setFileHash(id: number, hash: string, size: number, mtimeMs: number): void {
    this.db
      .prepare('UPDATE files SET hash = ?, hashed_size = ?, hashed_mtime_ms = ?, updated_at = ? WHERE id = ?')
      .run(hash, size, Math.trunc(mtimeMs), Date.now(), id);
  }

  setFilePaused(id: number, paused: boolean): void {
    this.db.prepare('UPDATE files SET paused = ?, updated_at = ? WHERE id = ?').run(paused ? 1 : 0, Date.now(), id);
  }

  /** Live files holding this content, oldest first. */
  filesWithHash(hash: string): FileRow[] {
    return this.db
      .prepare(`SELECT * FROM files WHERE hash = ? AND state = 'linked' ORDER BY id`)
      .all(hash)
      .map((r) => fileRowSchema.parse(r));
  }

  setFileMedia(id: number, m: FileMedia): void {
    this.db
      .prepare(
        'UPDATE files SET duration = ?, width = ?, height = ?, fps = ?, codec = ?, camera = ?, taken_at = ? WHERE id = ?',
      )
      .run(m.duration, m.width, m.height, m.fps, m.codec, m.camera, m.takenAt, id);
  }

  /** One page of files, filtered and sorted in SQL; files without the sorted fact come last either way, then by id. */
  filesPage(page: number, size: number, query: FilesQuery = {}): { rows: FileRow[]; total: number } {
    const conditions: string[] = [];
    const args: (string | number)[] = [];
    if (query.state) {
      conditions.push('state = ?');
      args.push(query.state);
    }
    if (query.codec) {
      conditions.push('codec = ?');
      args.push(query.codec);
    }
    if (query.camera) {
      conditions.push('camera = ?');
      args.push(query.camera);
    }
    if (query.name) {
      conditions.push(`${NAME_EXPRESSION} LIKE lower(?) ESCAPE '\\'`);
      args.push(likeContaining(query.name));
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const key = sortExpression(query.sort ?? 'added');
    const order = `(${key}) IS NULL, ${key} ${query.desc ? 'DESC' : 'ASC'}, id ${query.desc ? 'DESC' : 'ASC'}`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM files ${where}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM files ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...args, size, (page - 1) * size)
      .map((r) => fileRowSchema.parse(r));
    return { rows, total };
  }

  /** Linked files never probed for their facts (linked before client migration 6). */
  linkedFilesWithoutMedia(): number[] {
    return (
      this.db.prepare(`SELECT id FROM files WHERE state = 'linked' AND codec IS NULL ORDER BY id`).all() as {
        id: number;
      }[]
    ).map((r) => r.id);
  }

  /** The codecs present, for the filter menu. */
  fileCodecs(): string[] {
    return (
      this.db.prepare('SELECT DISTINCT codec FROM files WHERE codec IS NOT NULL ORDER BY codec').all() as {
        codec: string;
      }[]
    ).map((r) => r.codec);
  }

  /** The cameras present, for the filter menu. */
  fileCameras(): string[] {
    return (
      this.db.prepare('SELECT DISTINCT camera FROM files WHERE camera IS NOT NULL ORDER BY lower(camera)').all() as {
        camera: string;
      }[]
    ).map((r) => r.camera);
  }

  fileCounts(): Record<FileState, number> {
    const out = Object.fromEntries(FILE_STATES.map((s) => [s, 0])) as Record<FileState, number>;
    for (const r of this.db.prepare('SELECT state, COUNT(*) AS n FROM files GROUP BY state').all() as {
      state: FileState;
      n: number;
    }[])
      out[r.state] = r.n;
    return out;
  }

  /** Files per status as the UI shows it, from the counts the database keeps (migration 9); statuses with none left out. */
  statusCounts(): Partial<Record<FileStatus, number>> {
    const rows = statusCountRow
      .array()
      .parse(this.db.prepare('SELECT status, n FROM file_status_counts WHERE n > 0').all());
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  // ---- contents
  content(hash: string): ContentRow | undefined {
    const row = this.db.prepare('SELECT * FROM contents WHERE hash = ?').get(hash);
    return row ? contentRowSchema.parse(row) : undefined;
  }

  /** Creates the content row unless it exists; true when created. */
  createContent(input: {
    hash: string;
    size: number;
    folderId: number | null;
    tags: string[];
    meta: UploadMeta;
  }): boolean {
    const now = Date.now();
    return (
      this.db
        .prepare(
          `INSERT INTO contents (hash, size, state, folder_id, tags, meta, created_at, updated_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)
           ON CONFLICT(hash) DO NOTHING`,
        )
        .run(input.hash, input.size, input.folderId, JSON.stringify(input.tags), JSON.stringify(input.meta), now, now)
        .changes > 0
    );
  }

  setContentState(hash: string, state: ContentState, reason: string | null = null): void {
    this.db
      .prepare('UPDATE contents SET state = ?, reason = ?, updated_at = ? WHERE hash = ?')
      .run(state, reason, Date.now(), hash);
  }

  setContentVideo(hash: string, videoNo: string, foundExisting: boolean): void {
    this.db
      .prepare(
        `UPDATE contents SET video_no = ?, found_existing = ?, state = 'indexing', reason = NULL, updated_at = ? WHERE hash = ?`,
      )
      .run(videoNo, foundExisting ? 1 : 0, Date.now(), hash);
  }

  setContentProgress(hash: string, progress: number): void {
    this.db
      .prepare('UPDATE contents SET progress = ?, updated_at = ? WHERE hash = ?')
      .run(Math.round(progress), Date.now(), hash);
  }

  supersede(oldHash: string, newHash: string): void {
    this.db
      .prepare('UPDATE contents SET superseded_by = ?, updated_at = ? WHERE hash = ? AND hash != ?')
      .run(newHash, Date.now(), oldHash, newHash);
  }

  contentCounts(): Record<ContentState, number> {
    const out = Object.fromEntries(CONTENT_STATES.map((s) => [s, 0])) as Record<ContentState, number>;
    for (const r of this.db.prepare('SELECT state, COUNT(*) AS n FROM contents GROUP BY state').all() as {
      state: ContentState;
      n: number;
    }[])
      out[r.state] = r.n;
    return out;
  }
}
