import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sql } from '../storage/sql';

/** How long a session claim holds without renewal; the holder renews it every third of this while it works. */
export const SESSION_LEASE_MS = 60_000;

export interface SessionClaim {
  release(): Promise<void>;
}

/**
 * Claims a resumable upload session for one request (a chunk, the finalize, the idle sweep): one conditional UPDATE of
 * its dl_videos row, so one request holds it whichever process (API replica) it runs in; null when another holds it.
 * A claim whose process died lapses after the lease.
 */
export async function claimSession(
  sql: Sql,
  log: Logger,
  id: string,
  leaseMs = SESSION_LEASE_MS,
): Promise<SessionClaim | null> {
  const token = randomUUID();
  const now = Date.now();
  const { changes } = await sql.run(
    'UPDATE dl_videos SET claimed_by = ?, claim_until = ? WHERE id = ? AND (claimed_by IS NULL OR claim_until < ?)',
    token,
    now + leaseMs,
    id,
    now,
  );
  if (changes !== 1) return null;
  const renew = setInterval(() => {
    sql
      .run('UPDATE dl_videos SET claim_until = ? WHERE id = ? AND claimed_by = ?', Date.now() + leaseMs, id, token)
      .catch((err: unknown) => log.warn({ session: id, err }, 'cannot renew the upload session claim'));
  }, leaseMs / 3);
  return {
    release: async () => {
      clearInterval(renew);
      await sql.run(
        'UPDATE dl_videos SET claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?',
        id,
        token,
      );
    },
  };
}
