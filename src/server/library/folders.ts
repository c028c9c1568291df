import { z } from 'zod';
import type { Folder } from '../../shared/api-types';
import type { Db } from '../storage/db';
import { badRequest } from '../http/envelope';

const folderRow = z.object({
  id: z.number().int(),
  name: z.string(),
  unique_id: z.string().nullable(),
  is_default: z.number().int(),
  created_at: z.number().int(),
  video_count: z.number().int(),
});
const idRow = z.object({ id: z.number().int() });
/** The id of a row, or undefined when no row was found. */
const idOf = (row: unknown): number | undefined => (row === undefined ? undefined : idRow.parse(row).id);

const toFolder = (row: unknown): Folder => {
  const r = folderRow.parse(row);
  return {
    folder_id: r.is_default ? -1 : r.id,
    name: r.name,
    unique_id: r.unique_id,
    video_count: r.video_count,
    create_time: String(r.created_at),
  };
};

const SELECT = `SELECT f.*, (SELECT COUNT(*) FROM videos v WHERE v.folder_id = f.id) AS video_count FROM folders f`;

/** Folders per account. The Default folder is created on first use and is addressed as -1. */
export class Folders {
  constructor(private readonly db: Db) {}

  defaultFolderId(accountId: number): number {
    const id = idOf(this.db.prepare('SELECT id FROM folders WHERE account_id = ? AND is_default = 1').get(accountId));
    if (id !== undefined) return id;
    return Number(
      this.db
        .prepare("INSERT INTO folders (account_id, name, is_default, created_at) VALUES (?, 'Default', 1, ?)")
        .run(accountId, Date.now()).lastInsertRowid,
    );
  }

  /** Internal id for a folder_id / unique_id of the request; throws the contract's rejection for foreign ids. */
  resolve(accountId: number, folderId: number | undefined, uniqueId: string | undefined): number {
    if (uniqueId !== undefined) return this.byUniqueId(accountId, uniqueId);
    if (folderId === undefined || folderId === -1) return this.defaultFolderId(accountId);
    if (folderId <= 0) throw badRequest('folder_id must be -1 or a positive folder id');
    const id = idOf(this.db.prepare('SELECT id FROM folders WHERE id = ? AND account_id = ?').get(folderId, accountId));
    if (id === undefined) throw badRequest(`folder_id ${folderId} does not belong to this account`);
    return id;
  }

  /** Filter form: undefined when the request names no folder (search the whole account). */
  resolveFilter(accountId: number, folderId: number | undefined, uniqueId: string | undefined): number | undefined {
    if (folderId === undefined && uniqueId === undefined) return undefined;
    if (uniqueId !== undefined) {
      return (
        idOf(
          this.db.prepare('SELECT id FROM folders WHERE account_id = ? AND unique_id = ?').get(accountId, uniqueId),
        ) ?? 0
      );
    }
    return this.resolve(accountId, folderId, undefined);
  }

  private byUniqueId(accountId: number, uniqueId: string): number {
    const found = idOf(
      this.db.prepare('SELECT id FROM folders WHERE account_id = ? AND unique_id = ?').get(accountId, uniqueId),
    );
    if (found !== undefined) return found;
    return Number(
      this.db
        .prepare('INSERT INTO folders (account_id, name, unique_id, created_at) VALUES (?, ?, ?, ?)')
        .run(accountId, uniqueId, uniqueId, Date.now()).lastInsertRowid,
    );
  }

  /** Public folder_id of an internal id (-1 for the Default folder). */
  publicId(internalId: number): number {
    const isDefault: unknown = this.db.prepare('SELECT is_default FROM folders WHERE id = ?').pluck().get(internalId);
    return isDefault ? -1 : internalId;
  }

  /** The name of a folder by internal id; undefined when it is gone. */
  nameOf(internalId: number): string | undefined {
    const row: unknown = this.db.prepare('SELECT name FROM folders WHERE id = ?').get(internalId);
    return row === undefined ? undefined : folderRow.pick({ name: true }).parse(row).name;
  }

  create(accountId: number, name: string): Folder {
    const id = Number(
      this.db
        .prepare('INSERT INTO folders (account_id, name, created_at) VALUES (?, ?, ?)')
        .run(accountId, name, Date.now()).lastInsertRowid,
    );
    return this.existing(accountId, id);
  }

  get(accountId: number, id: number): Folder | undefined {
    const row: unknown = this.db.prepare(`${SELECT} WHERE f.account_id = ? AND f.id = ?`).get(accountId, id);
    return row === undefined ? undefined : toFolder(row);
  }

  list(accountId: number): Folder[] {
    this.defaultFolderId(accountId);
    return this.db
      .prepare(`${SELECT} WHERE f.account_id = ? ORDER BY f.is_default DESC, f.id`)
      .all(accountId)
      .map(toFolder);
  }

  rename(accountId: number, folderId: number, name: string): Folder {
    const id = this.resolve(accountId, folderId, undefined);
    this.db.prepare('UPDATE folders SET name = ? WHERE id = ?').run(name, id);
    return this.existing(accountId, id);
  }

  /** Deletes an empty folder; the Default folder and folders holding videos stay. */
  delete(accountId: number, folderId: number): void {
    if (folderId === -1) throw badRequest('the Default folder cannot be deleted');
    const id = this.resolve(accountId, folderId, undefined);
    const count = z
      .number()
      .int()
      .parse(this.db.prepare('SELECT COUNT(*) FROM videos WHERE folder_id = ?').pluck().get(id));
    if (count > 0) throw badRequest(`folder ${folderId} still holds ${count} videos; delete or move them first`);
    this.db.prepare('DELETE FROM folders WHERE id = ?').run(id);
  }

  private existing(accountId: number, id: number): Folder {
    const folder = this.get(accountId, id);
    if (!folder) throw new Error(`folder ${id} vanished right after it was written`);
    return folder;
  }
}
