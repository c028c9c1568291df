import { readFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { semanticConfigSchema } from './semantic/semantic-config';

/** Outgoing deliveries (upload callbacks, datalake webhooks): attempts, first retry delay (doubles, with jitter), timeout. */
const deliveries = z
  .object({
    maxAttempts: z.number().int().min(1).max(50).default(8),
    baseDelayMs: z.number().int().min(1).default(2000),
    timeoutMs: z.number().int().min(100).default(10_000),
  })
  .strict()
  .default({ maxAttempts: 8, baseDelayMs: 2000, timeoutMs: 10_000 });

/**
 * The team server's database: a PostgreSQL URL, `postgres://user[:password]@host[:port]/database` (the password is
 * better in PGPASSWORD, which the driver reads). Messages never repeat the URL: it may hold the password.
 */
const databaseUrl = z
  .string({ error: 'must be a postgres:// URL' })
  .refine((u) => /^postgres(ql)?:\/\//i.test(u), 'must be a postgres:// or postgresql:// URL')
  .refine(parsesAsUrl, 'is not a valid URL (percent-encode special characters in the user and password)');

function parsesAsUrl(u: string): boolean {
  try {
    new URL(u);
    return true;
  } catch {
    return false;
  }
}

/** Where the URL comes from when the config file has none: the environment keeps secrets out of the file. */
export const DATABASE_URL_ENV = 'REELSYNC_DATABASE_URL';

export const configSchema = z
  .object({
    /** Unset: SQLite in the data folder (the embedded default). `url`: PostgreSQL, shared by every api and worker. */
    database: z.object({ url: databaseUrl.optional() }).strict().default({}),
    limits: z
      .object({
        searchPerSecond: z.number().positive().default(50),
        uploadPerMinute: z.number().positive().default(600),
        downloadPerMinute: z.number().positive().default(600),
        /** Videos uploaded within the rolling 2 hours that are still waiting to be indexed. */
        indexQueueCap: z.number().int().positive().default(1000),
        concurrentIngests: z.number().int().positive().default(4),
        /** Resumable upload sessions an account may have open (created, not finalized) at once. */
        openUploadSessions: z.number().int().positive().default(20),
        /** A resumable session that receives nothing for this long is deleted with its bytes. */
        uploadSessionIdleMs: z
          .number()
          .int()
          .min(1000)
          .default(24 * 60 * 60 * 1000),
      })
      .strict()
      .default({
        searchPerSecond: 50,
        uploadPerMinute: 600,
        downloadPerMinute: 600,
        indexQueueCap: 1000,
        concurrentIngests: 4,
        openUploadSessions: 20,
        uploadSessionIdleMs: 24 * 60 * 60 * 1000,
      }),
    indexer: z
      .object({
        concurrency: z.number().int().min(1).max(16).default(1),
        maxAttempts: z.number().int().min(1).max(20).default(3),
        /** Maintenance switch: uploads are accepted and queued, nothing is indexed until it is false again. */
        paused: z.boolean().default(false),
        /** An index job fails once it has run timeLimitPerVideoSecond x the video's duration + timeLimitFloorSeconds. */
        timeLimitPerVideoSecond: z.number().positive().max(1000).default(3),
        timeLimitFloorSeconds: z.number().positive().max(86_400).default(300),
        /**
         * Re-index, in the background and behind new uploads, indexed videos whose index was written under older index
         * rules (indexer/index-rules.ts), so an existing library gets the current labels. Off: only `reindex-outdated
         * --queue` queues them.
         */
        reindexOutdated: z.boolean().default(true),
      })
      .strict()
      .default({
        concurrency: 1,
        maxAttempts: 3,
        paused: false,
        timeLimitPerVideoSecond: 3,
        timeLimitFloorSeconds: 300,
        reindexOutdated: true,
      }),
    /**
     * The job queue's leases: a worker holds a claimed job for leaseMs and renews it every renewMs while it runs; a job
     * whose worker died is claimed again once its lease passes. pollMs: how often workers look for new work.
     */
    jobs: z
      .object({
        leaseMs: z.number().int().min(1000).max(3_600_000).default(60_000),
        renewMs: z.number().int().min(100).max(1_800_000).default(15_000),
        pollMs: z.number().int().min(10).max(60_000).default(1000),
      })
      .strict()
      .refine((j) => j.renewMs * 2 <= j.leaseMs, {
        error: 'renewMs must be at most half of leaseMs',
        path: ['renewMs'],
      })
      .default({ leaseMs: 60_000, renewMs: 15_000, pollMs: 1000 }),
    callbacks: deliveries,
    /** Interface B's signed operation webhooks: attempts per delivery, first retry delay (doubles, with jitter). */
    webhooks: deliveries,
    /** Interface B's safety detector: a sampled frame counts when its unsafe score reaches threshold. */
    safety: z
      .object({
        threshold: z.number().min(0).max(1).default(0.7),
        /** Longer unsafe stretches are split, so live readers see events while one continues. */
        maxEventSeconds: z.number().positive().default(30),
      })
      .strict()
      .default({ threshold: 0.7, maxEventSeconds: 30 }),
    /**
     * Outbound requests to URLs users give (source_url, upload callbacks, webhooks, live sources). true allows
     * loopback/private targets. Unset, it follows the listen address (see parseConfig): true on loopback, where the
     * embedded service serves one user whose media servers are local; false on any other address.
     */
    network: z.object({ allowPrivateTargets: z.boolean().optional() }).strict().default({}),
    /**
     * Search: worker threads that rank (each with its own read-only connection), and the largest query image, in
     * pixels, that photo search decodes (its header is read first; a larger one is refused before any decoding).
     */
    search: z
      .object({
        workers: z.number().int().min(1).max(16).default(2),
        maxImagePixels: z.number().int().min(1).max(1_000_000_000).default(40_000_000),
      })
      .strict()
      .default({ workers: 2, maxImagePixels: 40_000_000 }),
    /**
     * Where blobs (originals, keyframes, posters) live: the data folder unless `s3` names an S3-compatible bucket.
     * Credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, never from this file.
     */
    storage: z
      .object({
        s3: z
          .object({
            /** Omitted for AWS itself; e.g. http://minio:9000 or https://<account>.r2.cloudflarestorage.com. */
            endpoint: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
            bucket: z
              .string({ error: 'is required (the S3 bucket name)' })
              .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z 0-9 . -)'),
            region: z.string().min(1).default('us-east-1'),
            /** true for most self-hosted servers (MinIO, Ceph RGW): http://host/bucket/key instead of bucket.host. */
            forcePathStyle: z.boolean().default(false),
          })
          .strict()
          .optional(),
      })
      .strict()
      .default({}),
    /** The semantic (CLIP-class) model slot: where its files come from and how its similarities are scored. */
    semantic: semanticConfigSchema,
    /** Inbound HTTP: a connection silent for idleTimeoutMs is closed (slow-loris); JSON bodies over maxJsonBytes get 413. */
    http: z
      .object({
        idleTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
        maxJsonBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
      })
      .strict()
      .default({ idleTimeoutMs: 60_000, maxJsonBytes: 1024 * 1024 }),
  })
  .strict();

export type ServiceConfig = Omit<z.infer<typeof configSchema>, 'network'> & {
  network: { allowPrivateTargets: boolean };
};

export class ConfigError extends Error {}

/** Where the service listens; it decides defaults that depend on who can reach it. */
export interface ListenAddress {
  host: string;
}

const LOOPBACK: ListenAddress = { host: '127.0.0.1' };

/** 127.0.0.0/8, ::1 (bracketed or not) and localhost: only this machine can connect. 0.0.0.0, :: and the rest: not. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIPv4(bare)) return bare.startsWith('127.');
  return isIPv6(bare) && new URL(`http://[${bare}]/`).hostname === '[::1]';
}

/** The start-up warning for a service others can reach that may still connect to private addresses; null if none. */
export function exposureWarning(config: ServiceConfig, listen: ListenAddress): string | null {
  if (isLoopbackHost(listen.host) || !config.network.allowPrivateTargets) return null;
  return (
    `listening on ${listen.host} with network.allowPrivateTargets true: anyone who can reach this service can make it ` +
    'connect to loopback and private addresses (source_url, callbacks, webhooks, live sources); set it to false unless every caller is trusted'
  );
}

/**
 * Parses a config object for a service listening on `listen`; errors name the offending key. A config without
 * `database.url` takes it from REELSYNC_DATABASE_URL in `env` when set.
 */
export function parseConfig(
  raw: unknown,
  listen: ListenAddress = LOOPBACK,
  env: NodeJS.ProcessEnv = process.env,
): ServiceConfig {
  const parsed = configSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(root)');
    const keys =
      issue?.code === 'unrecognized_keys'
        ? [issue.path.join('.'), issue.keys.join(', ')].filter(Boolean).join('.')
        : key;
    throw new ConfigError(`invalid config key ${keys}: ${issue?.message ?? 'invalid'}`);
  }
  const { network, database, ...rest } = parsed.data;
  const fromEnv = env[DATABASE_URL_ENV];
  if (database.url === undefined && fromEnv !== undefined && fromEnv !== '') {
    const checked = databaseUrl.safeParse(fromEnv);
    if (!checked.success)
      throw new ConfigError(`invalid ${DATABASE_URL_ENV}: ${checked.error.issues[0]?.message ?? 'invalid'}`);
    database.url = checked.data;
  }
  return {
    ...rest,
    database,
    network: { allowPrivateTargets: network.allowPrivateTargets ?? isLoopbackHost(listen.host) },
  };
}

export async function loadConfig(file: string | undefined, listen: ListenAddress = LOOPBACK): Promise<ServiceConfig> {
  if (!file) return parseConfig({}, listen);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  return parseConfig(raw, listen);
}
