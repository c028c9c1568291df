import { z } from 'zod';
import { optionalRow } from '../storage/rows';
import type { Sql } from '../storage/sql';

const windowRow = z.object({
  hits: z.instanceof(Uint8Array).refine((b) => b.byteLength % 4 === 0, 'hits must be whole int32 values'),
  version: z.number().int(),
  expires_at: z.number().int(),
});

/**
 * A window's hit times are stored as int32 milliseconds before the row's `expires_at`, in the platform's byte order
 * (little-endian on every Node target): a full upload window is 600 hits, and 2.4 KB of them fit the row's page, where
 * JSON would be 8 KB to parse, stringify and spill over pages on every take.
 */
function storedOffsets(row: { hits: Uint8Array } | undefined): Int32Array {
  return row ? new Int32Array(new Uint8Array(row.hits).buffer) : new Int32Array(0); // a copy: aligned for int32
}

/** Compare-and-set attempts before giving up: each failure means another process recorded a hit of the same key. */
const MAX_ATTEMPTS = 50;
/** How often one limiter deletes the rows of idle keys. */
const SWEEP_EVERY_MS = 60_000;
/**
 * A row is deleted this long after its window ended, not at once: a process that read it just before could otherwise
 * compare-and-set against a new row of the same key that happens to carry the same version.
 */
const SWEEP_GRACE_MS = 60_000;

/**
 * Sliding-window limiter per key (account + kind), shared by every process on the database (`rate_limits` table), so
 * a limit holds across API replicas. Within one process the takes of a key run one after another; across processes a
 * write only lands on the version it read (compare-and-set), and a lost race reads again.
 */
export class RateLimiter {
  private readonly queues = new Map<string, Promise<number>>();
  private nextSweep = 0;

  constructor(
    private readonly sql: Sql,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a hit and returns 0, or returns the seconds to wait when the limit is reached (no hit recorded). */
  take(key: string): Promise<number> {
    const before = this.queues.get(key);
    const result = before
      ? before.then(
          () => this.takeShared(key),
          () => this.takeShared(key),
        )
      : this.takeShared(key);
    this.queues.set(key, result);
    const forget = (): void => {
      if (this.queues.get(key) === result) this.queues.delete(key);
    };
    void result.then(forget, forget);
    return result;
  }

  private async takeShared(key: string): Promise<number> {
    await this.sweepIfDue();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = this.clock();
      const row = optionalRow(
        windowRow,
        await this.sql.get('SELECT hits, version, expires_at FROM rate_limits WHERE key = ?', key),
      );
      const expiresAt = now + this.windowMs;
      const stored = storedOffsets(row);
      const kept = new Int32Array(stored.length + 1); // the hits still in the window, then this one
      let count = 0;
      let oldest = now;
      for (const offset of stored) {
        const t = (row?.expires_at ?? 0) - offset;
        if (t <= now - this.windowMs) continue;
        kept[count++] = expiresAt - t;
        oldest = Math.min(oldest, t); // replicas' clocks may disagree a little: the oldest is the smallest time
      }
      if (count >= this.max) return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
      kept[count++] = expiresAt - now;
      const encoded = new Uint8Array(kept.buffer, 0, count * 4);
      const written = row
        ? await this.sql.run(
            'UPDATE rate_limits SET hits = ?, version = version + 1, expires_at = ? WHERE key = ? AND version = ?',
            encoded,
            expiresAt,
            key,
            row.version,
          )
        : await this.sql.run(
            'INSERT INTO rate_limits (key, hits, version, expires_at) VALUES (?, ?, 1, ?) ON CONFLICT (key) DO NOTHING',
            key,
            encoded,
            expiresAt,
          );
      if (written.changes === 1) return 0;
    }
    throw new Error(`rate limit ${key}: ${MAX_ATTEMPTS} writes in a row lost to other processes`);
  }

  /** Whole milliseconds: the table's times are integers on both engines. */
  private clock(): number {
    return Math.floor(this.now());
  }

  private async sweepIfDue(): Promise<void> {
    const now = this.clock();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    await this.sql.run('DELETE FROM rate_limits WHERE expires_at < ?', now - SWEEP_GRACE_MS);
  }
}
