import { z } from 'zod';
import type { Sql } from '../storage/sql';
import { countOf, flagColumn, optionalRow } from '../storage/rows';
import { iso } from './iso-time';
import { newestFirstPage, type NewestFirstKey, type Page, type PageRequest } from './paging';
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

/** The id of the collection's `folders` row. */
const folderIdRowSchema = z.object({ id: z.number().int() });

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
  constructor(private readonly sql: Sql) {}

  /** The collection and its folder, both or neither. */
  async create(
    accountId: number,
    name: string,
    safetyDetector: boolean,
    faceRecognition: boolean,
  ): Promise<CollectionRow> {
    const id = newId('col');
    const now = Date.now();
    const row = await this.sql.transaction(async (tx) => {
      const folder = folderIdRowSchema.parse(
        await tx.get(
          'INSERT INTO folders (account_id, name, unique_id, created_at) VALUES (?, ?, ?, ?) RETURNING id',
          accountId,
          `datalake: ${name}`,
          `datalake:${id}`,
          now,
        ),
      );
      return tx.get(
        `INSERT INTO dl_collections (id, account_id, name, safety_detector, face_recognition, folder_id, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?) RETURNING *`,
        id,
        accountId,
        name,
        safetyDetector ? 1 : 0,
        faceRecognition ? 1 : 0,
        folder.id,
        now,
        now,
      );
    });
    return collectionRowSchema.parse(row);
  }

  async byId(id: string): Promise<CollectionRow | undefined> {
    return optionalRow(collectionRowSchema, await this.sql.get('SELECT * FROM dl_collections WHERE id = ?', id));
  }

  /** The account's collection, never another account's. */
  async get(accountId: number, id: string): Promise<CollectionRow | undefined> {
    return optionalRow(
      collectionRowSchema,
      await this.sql.get('SELECT * FROM dl_collections WHERE id = ? AND account_id = ?', id, accountId),
    );
  }

  /** Newest first. */
  list(accountId: number, request: PageRequest<NewestFirstKey>): Promise<Page<CollectionRow>> {
    return newestFirstPage(this.sql, 'dl_collections', collectionRowSchema, 'account_id = ?', [accountId], request);
  }

  async markDeleting(id: string): Promise<void> {
    await this.sql.run("UPDATE dl_collections SET state = 'deleting', updated_at = ? WHERE id = ?", Date.now(), id);
  }

  /** Removes the collection and its folder, unless a library video still files under that folder. */
  async remove(id: string): Promise<void> {
    await this.sql.transaction(async (tx) => {
      const row = optionalRow(
        folderIdRowSchema,
        await tx.get('DELETE FROM dl_collections WHERE id = ? RETURNING folder_id AS id', id),
      );
      if (!row) return;
      await tx.run(
        'DELETE FROM folders WHERE id = ? AND NOT EXISTS (SELECT 1 FROM videos WHERE folder_id = ?)',
        row.id,
        row.id,
      );
    });
  }

  async record(row: CollectionRow): Promise<CollectionRecord> {
    const videoCount = countOf(
      await this.sql.get(
        "SELECT COUNT(*) AS n FROM dl_videos WHERE collection_id = ? AND status != 'cancelled'",
        row.id,
      ),
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
