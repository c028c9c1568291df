import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatUsd } from '../accounts/billing';
import { admitNewMedia } from '../ingest/admission';
import { indexingPrice } from '../accounts/billing';
import type { Datalake } from './datalake';
import type { DlVideoRow, NewDlVideo } from './dl-videos';
import { DatalakeError } from './errors';
import { runPeriodically } from './periodic';
import { lockRow } from '../storage/dialect';
import { claimSession } from './session-claims';

/**
 * A resumable session's indexing price is not known until its bytes are probed, so admission prices the declared
 * size at this bitrate (8 Mbit/s, a 1080p camera file): low enough that a real file rarely costs more.
 */
export const SESSION_PRICE_BYTES_PER_SECOND = 1_000_000;

/** The price admission expects a session of `size` bytes to cost once indexed (at least a minute's). */
export function sessionPrice(size: number): number {
  return indexingPrice(Math.max(60, size / SESSION_PRICE_BYTES_PER_SECOND));
}

/**
 * Admits and records a new session, or finds the one opened before with the same idempotency key (`replayed`): the
 * upload rate limit, the indexing-queue cap, the open-session cap, and a balance that covers the expected price of this
 * session and of every other open one. Check and insert are one transaction under the account's row lock, so
 * concurrent creations (in this process or another on the same database) cannot all slip under the cap, nor open two
 * sessions for one key.
 */
export async function openSession(
  dl: Datalake,
  session: NewDlVideo & { uploadSize: number },
): Promise<{ video: DlVideoRow; replayed: boolean }> {
  const { ctx } = dl;
  const accountId = session.accountId;
  await admitNewMedia(ctx, accountId, indexingPrice(60)); // the full expected price is checked below, with the other sessions
  return ctx.sql.transaction(async (tx) => {
    await lockRow(tx, 'accounts', accountId);
    const previous = session.idempotencyKey
      ? await dl.videos.byIdempotencyKey(accountId, session.idempotencyKey, tx)
      : undefined;
    if (previous) return { video: previous, replayed: true };
    const open = await dl.videos.openUploads(accountId, tx);
    const { openUploadSessions: cap, uploadSessionIdleMs: idleMs } = ctx.config.limits;
    if (open.length >= cap) {
      const oldest = Math.min(...open.map((s) => s.updated_at));
      const retryAfter = Math.max(1, Math.ceil((oldest + idleMs - Date.now()) / 1000));
      throw new DatalakeError(
        429,
        'rate_limited',
        `${open.length} resumable upload sessions are open, the limit is ${cap}: finish (finalize) one, or wait until an idle one expires (${Math.round(idleMs / 1000)} s without bytes)`,
        { 'retry-after': String(retryAfter) },
      );
    }
    const expected = open.reduce((sum, s) => sum + sessionPrice(s.upload_size ?? 0), sessionPrice(session.uploadSize));
    const balance = await ctx.billing.balance(accountId, tx);
    if (balance < expected) {
      throw new DatalakeError(
        402,
        'insufficient_balance',
        `the balance ${formatUsd(balance)} does not cover the expected indexing price ${formatUsd(expected)} of this upload (${session.uploadSize} bytes) and the ${open.length} other open upload sessions`,
      );
    }
    return { video: await dl.videos.insert(session, tx), replayed: false };
  });
}

/**
 * Deletes the sessions idle for longer than limits.uploadSessionIdleMs: the row first, then its bytes, so a crash in
 * between leaves only a file without a row, which the start-up cleanup removes. Idle is measured from the later of the
 * row's last update and the part file's last write (a crash mid-chunk leaves only the latter).
 */
export async function sweepIdleSessions(dl: Datalake, now = Date.now()): Promise<string[]> {
  const idleMs = dl.ctx.config.limits.uploadSessionIdleMs;
  const expired: string[] = [];
  for (const session of await dl.videos.openUploads()) {
    const written = (await stat(dl.uploadPath(session.id)).catch(() => null))?.mtimeMs ?? 0;
    if (now - Math.max(session.updated_at, written) <= idleMs) continue;
    // Held while it is deleted (a request writing it, in any process, holds it: the sweep leaves it be); a chunk
    // arriving now finds it claimed, then gone. One that landed since the read above touched the row, and the delete,
    // conditional on the row as read, leaves the session be.
    const claim = await claimSession(dl.ctx.sql, dl.ctx.log, session.id);
    if (!claim) continue;
    try {
      if (!(await dl.videos.expireSession(session.id, session.updated_at))) continue;
      await rm(dl.uploadPath(session.id), { force: true });
      expired.push(session.id);
    } finally {
      await claim.release();
    }
  }
  if (expired.length) dl.ctx.log.info({ sessions: expired }, 'expired idle upload sessions');
  return expired;
}

/**
 * On a shared database (PostgreSQL) other processes may be writing into a shared upload folder: a file being received
 * has no row yet, a live stream's folder is being cut. Only what nobody wrote to for this long is an orphan there.
 */
const SHARED_ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * At start, before any request: removes uploaded files no video row refers to (left by a crash). With a shared
 * database, only those untouched for an hour (another process may be receiving them).
 */
export async function removeOrphanUploads(
  dl: Pick<Datalake, 'videos' | 'uploadDir'> & { ctx: Pick<Datalake['ctx'], 'sql' | 'log'> },
  now = Date.now(),
): Promise<number> {
  const shared = dl.ctx.sql.dialect === 'postgres';
  let removed = 0;
  for (const name of await readdir(dl.uploadDir)) {
    const m = /^(.+)\.bin$/.exec(name);
    if (m?.[1] && (await dl.videos.byId(m[1]))) continue;
    if (shared) {
      const written = (await stat(join(dl.uploadDir, name)).catch(() => null))?.mtimeMs;
      if (written === undefined || now - written < SHARED_ORPHAN_AGE_MS) continue;
    }
    await rm(join(dl.uploadDir, name), { force: true, recursive: true });
    removed++;
  }
  if (removed) dl.ctx.log.info({ removed }, 'removed orphan upload files');
  return removed;
}

/** Runs the idle sweep now and then every quarter of the idle time (at most a minute apart); returns the stop. */
export function startSessionSweeper(dl: Datalake): () => Promise<void> {
  const period = Math.min(60_000, Math.max(250, dl.ctx.config.limits.uploadSessionIdleMs / 4));
  return runPeriodically(period, () => sweepIdleSessions(dl), dl.ctx.log, 'upload session sweep');
}
