import { z } from 'zod';
import type { Db } from '../storage/db';
import { countOf, flagColumn, optionalRow } from '../storage/rows';
import { iso } from './iso-time';
import { newestFirstPageOnDb, type NewestFirstKey, type Page, type PageRequest } from './paging';
import { newId } from './public-id';

/** A row of `dl_collections`, parsed as read. */
export const collectionRowSchema = z.object({
  id: z.string(),
  account_id: z.number().int(),
  name: z.string(),
  safety_detector: flagColumn,
  face_recognition: flagColumn,
  folder_id: z.number().int(),
  state: z.enum(['active', 'deleting']),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type CollectionRow = z.output<typeof collectionRowSchema>;

export interface CollectionRecord {
  collection_id: string;
  name: string;
  safety_detector: boolean;
  face_recognition: boolean;
  state: 'active' | 'deleting';
  video_count: number;
  created_at: string;
  updated_at: string;
}

/** Collections group datalake videos; each owns a library folder so interface A and search filters see the same set. */
export class Collections {
  constructor(private readonly db: Db) {}

  create(accountId: number, name: string, safetyDetector: boolean, faceRecognition: boolean): CollectionRow {
    const id = newId('col');
    const now = Date.now();
    this.db.transaction(() => {
      const folderId = Number(
        this.db
          .prepare('INSERT INTO folders (account_id, name, unique_id, created_at) VALUES (?, ?, ?, ?)')
          .run(accountId, `datalake: ${name}`, `datalake:${id}`, now).lastInsertRowid,
      );
      this.db
        .prepare(
          `INSERT INTO dl_collections (id, account_id, name, safety_detector, face_recognition, folder_id, state, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
        )
        .run(id, accountId, name, safetyDetector ? 1 : 0, faceRecognition ? 1 : 0, folderId, now, now);
    })();
    return this.byId(id)!;
  }

  byId(id: string): CollectionRow | undefined {
    return optionalRow(collectionRowSchema, this.db.prepare('SELECT * FROM dl_collections WHERE id = ?').get(id));
  }

  /** The account's collection, never another account's. */
  get(accountId: number, id: string): CollectionRow | undefined {
    return optionalRow(
      collectionRowSchema,
      this.db.prepare('SELECT * FROM dl_collections WHERE id = ? AND account_id = ?').get(id, accountId),
    );
  }

  /** Newest first. */
  list(accountId: number, request: PageRequest<NewestFirstKey>): Page<CollectionRow> {
    return newestFirstPageOnDb(this.db, 'dl_collections', collectionRowSchema, 'account_id = ?', [accountId], request);
  }

  markDeleting(id: string): void {
    this.db.prepare("UPDATE dl_collections SET state = 'deleting', updated_at = ? WHERE id = ?").run(Date.now(), id);
  }

  /** Removes the collection and its (by then empty) folder. */
  remove(id: string): void {
    const row = this.byId(id);
    if (!row) return;
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM dl_collections WHERE id = ?').run(id);
      this.db
        .prepare('DELETE FROM folders WHERE id = ? AND NOT EXISTS (SELECT 1 FROM videos WHERE folder_id = ?)')
        .run(row.folder_id, row.folder_id);
    })();
  }

  record(row: CollectionRow): CollectionRecord {
    const videoCount = countOf(
      this.db
        .prepare("SELECT COUNT(*) AS n FROM dl_videos WHERE collection_id = ? AND status != 'cancelled'")
        .get(row.id),
    );
    return {
      collection_id: row.id,
      name: row.name,
      safety_detector: row.safety_detector === 1,
      face_recognition: row.face_recognition === 1,
      state: row.state,
      video_count: videoCount,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }
}
