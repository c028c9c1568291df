import { z } from 'zod';
import { optionalRow } from '../storage/rows';
import type { Sql } from '../storage/sql';

const windowRow = z.object({
  hits: z.instanceof(Uint8Array).refine((b) => b.byteLength % 8 === 0, 'hits must be whole float64 values'),
  version: z.number().int(),
});

/** The stored hit times (ms), as float64s in the platform's byte order, which is little-endian on all Node targets. */
function storedHits(bytes: Uint8Array | undefined): Float64Array {
  return bytes ? new Float64Array(new Uint8Array(bytes).buffer) : new Float64Array(0); // a copy: aligned for float64
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
      const now = Math.floor(this.now());
      const row = optionalRow(
        windowRow,
        await this.sql.get('SELECT hits, version FROM rate_limits WHERE key = ?', key),
      );
      // The hits still in the window, and room for this one; bytes rather than JSON: a full upload window holds 600.
      const stored = storedHits(row?.hits);
      const kept = new Float64Array(stored.length + 1);
      let count = 0;
      let oldest = now;
      for (const t of stored) {
        if (t <= now - this.windowMs) continue;
        kept[count++] = t;
        oldest = Math.min(oldest, t); // replicas' clocks may disagree a little: the oldest is the smallest time
      }
      if (count >= this.max) return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
      kept[count++] = now;
      const encoded = new Uint8Array(kept.buffer, 0, count * 8);
      const written = row
        ? await this.sql.run(
            'UPDATE rate_limits SET hits = ?, version = version + 1, expires_at = ? WHERE key = ? AND version = ?',
            encoded,
            now + this.windowMs,
            key,
            row.version,
          )
        : await this.sql.run(
            'INSERT INTO rate_limits (key, hits, version, expires_at) VALUES (?, ?, 1, ?) ON CONFLICT (key) DO NOTHING',
            key,
            encoded,
            now + this.windowMs,
          );
      if (written.changes === 1) return 0;
    }
    throw new Error(`rate limit ${key}: ${MAX_ATTEMPTS} writes in a row lost to other processes`);
  }

  private async sweepIfDue(): Promise<void> {
    const now = this.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    await this.sql.run('DELETE FROM rate_limits WHERE expires_at < ?', now - SWEEP_GRACE_MS);
  }
}
