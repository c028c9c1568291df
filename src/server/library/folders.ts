import { z } from 'zod';
import type { Folder } from '../../shared/api-types';
import { countOf, optionalRow, parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';
import { invalidInput } from '../domain-errors';

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
const idOf = (row: unknown): number | undefined => optionalRow(idRow, row)?.id;
const defaultRow = folderRow.pick({ id: true, is_default: true });

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

/**
 * Folders per account. The Default folder is created on first use and is addressed as -1. Folders made on first use
 * (the Default one, one per unique_id) are inserted with ON CONFLICT DO NOTHING and read back, so two requests
 * making the same one at once both get it.
 */
export class Folders {
  constructor(private readonly sql: Sql) {}

  async defaultFolderId(accountId: number, on: Sql = this.sql): Promise<number> {
    const find = async () =>
      idOf(await on.get('SELECT id FROM folders WHERE account_id = ? AND is_default = 1', accountId));
    const found = await find();
    if (found !== undefined) return found;
    await on.run(
      "INSERT INTO folders (account_id, name, is_default, created_at) VALUES (?, 'Default', 1, ?) ON CONFLICT DO NOTHING",
      accountId,
      Date.now(),
    );
    return existingId(await find(), `the Default folder of account ${accountId}`);
  }

  /** Internal id for a folder_id / unique_id of the request; throws the contract's rejection for foreign ids. */
  async resolve(
    accountId: number,
    folderId: number | undefined,
    uniqueId: string | undefined,
    on: Sql = this.sql,
  ): Promise<number> {
    if (uniqueId !== undefined) return this.byUniqueId(accountId, uniqueId, on);
    if (folderId === undefined || folderId === -1) return this.defaultFolderId(accountId, on);
    if (folderId <= 0) throw invalidInput('folder_id must be -1 or a positive folder id');
    const id = idOf(await on.get('SELECT id FROM folders WHERE id = ? AND account_id = ?', folderId, accountId));
    if (id === undefined) throw invalidInput(`folder_id ${folderId} does not belong to this account`);
    return id;
  }

  /** Filter form: undefined when the request names no folder (search the whole account). */
  async resolveFilter(
    accountId: number,
    folderId: number | undefined,
    uniqueId: string | undefined,
  ): Promise<number | undefined> {
    if (folderId === undefined && uniqueId === undefined) return undefined;
    if (uniqueId !== undefined) return (await this.uniqueIdFolder(accountId, uniqueId, this.sql)) ?? 0;
    return this.resolve(accountId, folderId, undefined);
  }

  private async uniqueIdFolder(accountId: number, uniqueId: string, on: Sql): Promise<number | undefined> {
    return idOf(await on.get('SELECT id FROM folders WHERE account_id = ? AND unique_id = ?', accountId, uniqueId));
  }

  private async byUniqueId(accountId: number, uniqueId: string, on: Sql): Promise<number> {
    const found = await this.uniqueIdFolder(accountId, uniqueId, on);
    if (found !== undefined) return found;
    await on.run(
      'INSERT INTO folders (account_id, name, unique_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      accountId,
      uniqueId,
      uniqueId,
      Date.now(),
    );
    return existingId(
      await this.uniqueIdFolder(accountId, uniqueId, on),
      `the folder ${uniqueId} of account ${accountId}`,
    );
  }

  /** Public folder_id of each internal id (-1 for the Default folder). */
  async publicIds(internalIds: readonly number[]): Promise<Map<number, number>> {
    const ids = [...new Set(internalIds)];
    if (ids.length === 0) return new Map();
    const rows = parsedRows(
      defaultRow,
      await this.sql.all(`SELECT id, is_default FROM folders WHERE id IN (${ids.map(() => '?').join(', ')})`, ...ids),
    );
    return new Map(rows.map((r) => [r.id, r.is_default ? -1 : r.id]));
  }

  /** The name of a folder by internal id; undefined when it is gone. */
  async nameOf(internalId: number): Promise<string | undefined> {
    const row = await this.sql.get('SELECT name FROM folders WHERE id = ?', internalId);
    return optionalRow(folderRow.pick({ name: true }), row)?.name;
  }

  async create(accountId: number, name: string): Promise<Folder> {
    const id = idRow.parse(
      await this.sql.get(
        'INSERT INTO folders (account_id, name, created_at) VALUES (?, ?, ?) RETURNING id',
        accountId,
        name,
        Date.now(),
      ),
    ).id;
    return this.existing(accountId, id);
  }

  async get(accountId: number, id: number): Promise<Folder | undefined> {
    const row = await this.sql.get(`${SELECT} WHERE f.account_id = ? AND f.id = ?`, accountId, id);
    return row === undefined ? undefined : toFolder(row);
  }

  async list(accountId: number): Promise<Folder[]> {
    await this.defaultFolderId(accountId);
    const rows = await this.sql.all(`${SELECT} WHERE f.account_id = ? ORDER BY f.is_default DESC, f.id`, accountId);
    return rows.map(toFolder);
  }

  async rename(accountId: number, folderId: number, name: string): Promise<Folder> {
    const id = await this.resolve(accountId, folderId, undefined);
    await this.sql.run('UPDATE folders SET name = ? WHERE id = ?', name, id);
    return this.existing(accountId, id);
  }

  /**
   * Deletes an empty folder; the Default folder and folders holding videos stay. The delete itself requires the
   * folder empty, so a video stored into it meanwhile (from another replica) keeps it.
   */
  async delete(accountId: number, folderId: number): Promise<void> {
    if (folderId === -1) throw invalidInput('the Default folder cannot be deleted');
    await this.sql.transaction(async (tx) => {
      const id = await this.resolve(accountId, folderId, undefined, tx);
      const count = countOf(await tx.get('SELECT COUNT(*) AS n FROM videos WHERE folder_id = ?', id));
      if (count > 0) throw invalidInput(`folder ${folderId} still holds ${count} videos; delete or move them first`);
      const deleted = await tx.run(
        'DELETE FROM folders WHERE id = ? AND NOT EXISTS (SELECT 1 FROM videos WHERE folder_id = ?)',
        id,
        id,
      );
      if (deleted.changes !== 1) throw invalidInput(`folder ${folderId} changed while it was being deleted; try again`);
    });
  }

  private async existing(accountId: number, id: number): Promise<Folder> {
    const folder = await this.get(accountId, id);
    if (!folder) throw new Error(`folder ${id} vanished right after it was written`);
    return folder;
  }
}

function existingId(id: number | undefined, what: string): number {
  if (id === undefined) throw new Error(`${what} vanished right after it was written`);
  return id;
}
