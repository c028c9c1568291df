import { join } from 'node:path';
import { z } from 'zod';
import { parseLibraryBaseUrl } from '../../shared/library-url';
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
  /** The origin or the base URL (…/serve/api/v1), normalised to the base URL. */
  server: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseLibraryBaseUrl(value);
      if (parsed.ok) return parsed.url;
      ctx.addIssue({ code: 'custom', message: `--server / REELSYNC_SERVER: ${parsed.error}` });
      return z.NEVER;
    })
    .optional(),
  key: z.string().min(1).optional(),
  db: z.string().min(1),
});
export type GlobalOptions = z.infer<typeof globalOptionsSchema>;

/** Flags win over REELSYNC_SERVER / REELSYNC_KEY / REELSYNC_DB; the database defaults to the data folder's reelsync.db. */
export function resolveGlobalOptions(
  flags: { server?: string; key?: string; db?: string },
  env: NodeJS.ProcessEnv = process.env,
): GlobalOptions {
  const parsed = globalOptionsSchema.safeParse({
    server: flags.server ?? (env.REELSYNC_SERVER || undefined),
    key: flags.key ?? (env.REELSYNC_KEY || undefined),
    db: flags.db ?? (env.REELSYNC_DB || join(defaultDataDir(), 'reelsync.db')),
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}

export class UsageError extends Error {}
