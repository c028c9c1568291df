import { z } from 'zod';
import type { Db } from '../store/database';
import type { IdentityStore } from './identities';
import { originalIdentitySchema, type OriginalIdentity } from './original-identity';

const storedSchema = z.object({ identity: z.string() });
const fileSchema = z.object({ id: z.number().int(), path: z.string() });

/** file_identity rows (client migration 11): a watched file's identity at the size and mtime it was read at. */
export class SqliteIdentityStore implements IdentityStore {
  constructor(private readonly db: Db) {}

  get(path: string, size: number, mtimeMs: number): OriginalIdentity | null {
    const row = this.db
      .prepare(
        'SELECT i.identity FROM file_identity i JOIN files f ON f.id = i.file_id WHERE f.path = ? AND i.size = ? AND i.mtime_ms = ?',
      )
      .get(path, size, Math.trunc(mtimeMs));
    const stored = storedSchema.safeParse(row);
    if (!stored.success) return null;
    try {
      const parsed = originalIdentitySchema.safeParse(JSON.parse(stored.data.identity));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  put(path: string, size: number, mtimeMs: number, id: OriginalIdentity): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO file_identity
           (file_id, size, mtime_ms, start_timecode, rate, drop_frame, timecode_source, reel, clip_name, camera_model, identity, read_at)
         SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM files WHERE path = ?`,
      )
      .run(
        size,
        Math.trunc(mtimeMs),
        id.startTimecode,
        id.rate,
        id.dropFrame ? 1 : 0,
        id.timecodeSource,
        id.reel,
        id.clipName,
        id.cameraModel,
        JSON.stringify(id),
        Date.now(),
        path,
      );
  }

  /** Linked files whose identity was never read, or was read before the file last changed (size or mtime). */
  staleFiles(): { id: number; path: string }[] {
    return z.array(fileSchema).parse(
      this.db
        .prepare(
          `SELECT f.id, f.path FROM files f LEFT JOIN file_identity i ON i.file_id = f.id
           WHERE f.state = 'linked' AND (i.file_id IS NULL OR i.size != f.size OR i.mtime_ms != f.mtime_ms)
           ORDER BY f.id`,
        )
        .all(),
    );
  }
}
