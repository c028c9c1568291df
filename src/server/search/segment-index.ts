import { unreachable } from '../../shared/errors';
import type { Sql } from '../storage/sql';
import { indexSegmentPg, unindexVideoPg } from './pg/pg-segment-index';
import type { SegmentText } from './segment-types';
import { sqliteFullText } from './sqlite/fts-index';

/**
 * The full-text side of rewriting or deleting one video's segments, in the transaction `tx` that does it: a switch on
 * the engine, nothing more. SQLite (sqlite/fts-index.ts): FTS5 tables beside the rows (the account's own and the
 * shared trigram table), which no foreign key reaches. PostgreSQL (pg/pg-segment-index.ts): `segment_search` rows,
 * one per segment.
 */
export const videoFullText = {
  /** Before the video's segments are deleted: their rows leave the index. */
  async unindex(tx: Sql, accountId: number, videoId: number): Promise<void> {
    switch (tx.dialect) {
      case 'sqlite':
        return sqliteFullText.unindex(tx, accountId, videoId);
      case 'postgres':
        return unindexVideoPg(tx, accountId, videoId);
      default:
        throw unreachable(tx.dialect);
    }
  },

  /** Before the first segment is indexed: on SQLite the account's table, created with its first indexed video. */
  async prepare(tx: Sql, accountId: number): Promise<void> {
    if (tx.dialect !== 'sqlite') return; // PostgreSQL's segment_search is one table for every account
    await sqliteFullText.prepare(tx, accountId);
  },

  /** One segment (rowid = segments.id) into the index; `trigram` is its text for fuzzy matches (FTS5 only). */
  async index(tx: Sql, accountId: number, segmentId: number, text: SegmentText, trigram: string): Promise<void> {
    switch (tx.dialect) {
      case 'sqlite':
        return sqliteFullText.index(tx, accountId, segmentId, text, trigram);
      case 'postgres':
        return indexSegmentPg(tx, accountId, segmentId, text);
      default:
        throw unreachable(tx.dialect);
    }
  },
};
