import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** Outgoing deliveries (upload callbacks, datalake webhooks): attempts, first retry delay (doubles, with jitter), timeout. */
const deliveries = z
  .object({
    maxAttempts: z.number().int().min(1).max(50).default(8),
    baseDelayMs: z.number().int().min(1).default(2000),
    timeoutMs: z.number().int().min(100).default(10_000),
  })
  .strict()
  .default({ maxAttempts: 8, baseDelayMs: 2000, timeoutMs: 10_000 });

export const configSchema = z
  .object({
    limits: z
      .object({
        searchPerSecond: z.number().positive().default(50),
        uploadPerMinute: z.number().positive().default(600),
        downloadPerMinute: z.number().positive().default(600),
        /** Videos uploaded within the rolling 2 hours that are still waiting to be indexed. */
        indexQueueCap: z.number().int().positive().default(1000),
        concurrentIngests: z.number().int().positive().default(4),
      })
      .strict()
      .default({ searchPerSecond: 50, uploadPerMinute: 600, downloadPerMinute: 600, indexQueueCap: 1000, concurrentIngests: 4 }),
    indexer: z
      .object({
        concurrency: z.number().int().min(1).max(16).default(1),
        maxAttempts: z.number().int().min(1).max(20).default(3),
        /** Maintenance switch: uploads are accepted and queued, nothing is indexed until it is false again. */
        paused: z.boolean().default(false),
      })
      .strict()
      .default({ concurrency: 1, maxAttempts: 3, paused: false }),
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
     * loopback/private targets: the default only because the embedded service runs on 127.0.0.1 for one user whose
     * own media servers are local; a shared or exposed service must set it to false.
     */
    network: z
      .object({ allowPrivateTargets: z.boolean().default(true) })
      .strict()
      .default({ allowPrivateTargets: true }),
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
    /** Inbound HTTP: a connection silent for idleTimeoutMs is closed (slow-loris); JSON bodies over maxJsonBytes get 413. */
    http: z
      .object({
        idleTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
        maxJsonBytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
      })
      .strict()
      .default({ idleTimeoutMs: 60_000, maxJsonBytes: 1024 * 1024 }),
  })
  .strict();

export type ServiceConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses a config object; errors name the offending key. */
export function parseConfig(raw: unknown): ServiceConfig {
  const parsed = configSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(root)');
    const keys = issue?.code === 'unrecognized_keys' ? [issue.path.join('.'), issue.keys.join(', ')].filter(Boolean).join('.') : key;
    throw new ConfigError(`invalid config key ${keys}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export async function loadConfig(file: string | undefined): Promise<ServiceConfig> {
  if (!file) return parseConfig({});
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
  return parseConfig(raw);
}
