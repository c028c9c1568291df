import { join } from 'node:path';
import { z } from 'zod';
import { defaultDataDir } from '../paths';

/** Exit codes of the command line (documented in the README, "Command line"). */
export const EXIT = {
  ok: 0,
  /** At least one file failed (upload refused, indexing FAIL), or an unexpected error. */
  failed: 1,
  usage: 2,
  /** The service could not be reached or refused the key. */
  service: 3,
  /** The service says the balance is insufficient: the queue is paused. */
  balance: 4,
} as const;

export const globalOptionsSchema = z.object({
  server: z.string().url().optional(),
  key: z.string().min(1).optional(),
  db: z.string().min(1),
});
export type GlobalOptions = z.infer<typeof globalOptionsSchema>;

/** Flags win over REELSYNC_SERVER / REELSYNC_KEY / REELSYNC_DB; the database defaults to the data folder's reelsync.db. */
export function resolveGlobalOptions(flags: { server?: string; key?: string; db?: string }, env: NodeJS.ProcessEnv = process.env): GlobalOptions {
  return globalOptionsSchema.parse({
    server: flags.server ?? (env.REELSYNC_SERVER || undefined),
    key: flags.key ?? (env.REELSYNC_KEY || undefined),
    db: flags.db ?? (env.REELSYNC_DB || join(defaultDataDir(), 'reelsync.db')),
  });
}

export class UsageError extends Error {}
