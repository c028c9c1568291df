import { z } from 'zod';
import { skipLocked } from '../storage/dialect';
import { parsedRows } from '../storage/rows';
import type { Sql } from '../storage/sql';

const segmentRow = z.object({ segment_id: z.number().int() });

/**
 * Claims on keyframes to embed (segment_embed_claims, migration 014): a process takes a batch before it runs the
 * model on it, so two workers on one database never embed the same keyframe at once, and gives it back when the
 * batch's vectors are stored (or failed). A claim left by a process that died lapses at `claim_until`, and the next
 * process to look takes the keyframe over.
 */
export class EmbedClaims {
  constructor(
    private readonly sql: Sql,
    /** Names this process in `claimed_by`. */
    readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  /**
   * Claims what it can of `segmentIds` for this process and answers those it got: a segment another process holds a
   * live claim on is left out. One statement: an insert, or the takeover of a lapsed claim. On PostgreSQL a second
   * process claiming the same segment waits on the first's row and then finds its claim live; ids go in ascending
   * order, so two such statements take their rows' locks in the same order.
   */
  async claim(model: string, segmentIds: number[]): Promise<number[]> {
    if (segmentIds.length === 0) return [];
    const now = Date.now();
    const ids = [...segmentIds].sort((a, b) => a - b);
    const rows = await this.sql.all(
      `INSERT INTO segment_embed_claims (model, segment_id, claimed_by, claim_until)
       VALUES ${ids.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT (model, segment_id) DO UPDATE SET claimed_by = excluded.claimed_by, claim_until = excluded.claim_until
       WHERE segment_embed_claims.claim_until < ?
       RETURNING segment_id`,
      ...ids.flatMap((id) => [model, id, this.owner, now + this.leaseMs]),
      now,
    );
    return parsedRows(segmentRow, rows).map((r) => r.segment_id);
  }

  /** Gives back this process's claims on `segmentIds` (those another process took over once lapsed stay theirs). */
  async release(model: string, segmentIds: number[]): Promise<void> {
    if (segmentIds.length === 0) return;
    await this.sql.run(
      `DELETE FROM segment_embed_claims
       WHERE model = ? AND claimed_by = ? AND segment_id IN (${segmentIds.map(() => '?').join(',')})`,
      model,
      this.owner,
      ...segmentIds,
    );
  }

  /**
   * Deletes claims lapsed for a lease or more: left by dead processes on keyframes no one took over (deleted ones).
   * Rows a claim is taking over at the moment are skipped (on PostgreSQL), so the two never wait for each other.
   */
  async sweep(): Promise<number> {
    const res = await this.sql.run(
      `DELETE FROM segment_embed_claims WHERE (model, segment_id) IN (
         SELECT model, segment_id FROM segment_embed_claims WHERE claim_until < ?${skipLocked(this.sql)}
       )`,
      Date.now() - this.leaseMs,
    );
    return res.changes;
  }
}
