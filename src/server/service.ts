import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { MetadataReader } from '../common/media/exif';
import { Accounts } from './accounts/accounts';
import { Billing } from './accounts/billing';
import { ConfigError, type ServiceConfig } from './config';
import type { ServiceContext } from './context';
import { buildHttpServer } from './http/server';
import { callbackHandler } from './jobs/callback-worker';
import { Datalake } from './datalake/datalake';
import { startDatalakeWorkers } from './datalake/workers';
import { AnalysisWorker } from './indexer/worker/analysis-host';
import { indexLaneSql } from './jobs/index-rows';
import { indexHandler, onIndexSettled, type Analyze } from './jobs/index-worker';
import { ServiceJobQueue } from './jobs/job-queue';
import { OutdatedSweep } from './jobs/reindex-sweep';
import { logReindexSettled, reindexHandler } from './jobs/reindex-worker';
import { Folders } from './library/folders';
import { REINDEX_JOB } from './library/outdated-videos';
import { URL_UPLOAD_JOB, urlUploadHandler } from './library/url-upload';
import { VideoIndex } from './library/video-index';
import { Videos } from './library/videos';
import { RateLimiter } from './limits/rate-limiter';
import { openBlobStore } from './storage/open-blob-store';
import { openServiceDatabase } from './storage/open-service-sql';
import { openServiceSearch } from './service-search';

/**
 * What a process of the service does: `all` (the embedded default) serves HTTP and runs the jobs; with a shared
 * database (PostgreSQL) `api` replicas serve HTTP only and `worker`s run the job queue only.
 */
export const SERVICE_ROLES = ['all', 'api', 'worker'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

export interface ServiceOptions {
  /** Scratch (tmp/), datalake uploads, the model cache; the SQLite database and blobs unless configured elsewhere. */
  dataDir: string;
  config: ServiceConfig;
  host?: string;
  port?: number;
  log?: Logger;
  /** Default `all`. */
  role?: ServiceRole;
  /** The indexer's analysis step; the real one unless a test narrows it. */
  analyze?: Analyze;
}

export interface RunningService {
  /** The HTTP origin; null for a worker, which listens on nothing. */
  url: string | null;
  ctx: ServiceContext;
  close(): Promise<void>;
}

export function serviceLogger(): Logger {
  return pino({ name: 'reelsync-service', level: process.env.REELSYNC_LOG ?? 'info' }, pino.destination(2));
}

/** Opens the database and blobs, then, as the role says, starts the job workers and listens on HTTP. */
export function startService(options: ServiceOptions & { role: 'worker' }): Promise<RunningService & { url: null }>;
export function startService(
  options: ServiceOptions & { role?: 'all' | 'api' },
): Promise<RunningService & { url: string }>;
export function startService(options: ServiceOptions): Promise<RunningService>;
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const log = options.log ?? serviceLogger();
  const role = options.role ?? 'all';
  if (role !== 'all' && options.config.database.url === undefined)
    throw new ConfigError(
      `--role ${role} needs a database every process shares: set database.url (PostgreSQL) in the config or REELSYNC_DATABASE_URL`,
    );
  const tmpDir = join(options.dataDir, 'tmp');
  await rm(tmpDir, { recursive: true, force: true }); // partial uploads and scratch of a previous run
  await mkdir(tmpDir, { recursive: true });
  const blobs = await openBlobStore(options.config, options.dataDir, tmpDir);
  await blobs.check();
  const database = await openServiceDatabase(options.config, options.dataDir);
  // The embedded service stays silent on a normal start; a team process says what it shares.
  if (database.engine === 'postgres') {
    log.info({ database: database.where, role }, 'service database open');
    if (!options.config.storage.s3)
      log.warn('database.url without storage.s3: blobs stay in this data folder, which every process must share');
  }
  const { sql } = database;
  const { limits } = options.config;
  const search = openServiceSearch(database, {
    dataDir: options.dataDir,
    config: options.config,
    blobs,
    log,
    // The keyframe backlog is job work: an API replica keeps its CPU for requests and embeds query text only.
    embedsKeyframes: role !== 'api',
    answersSearches: role !== 'worker',
  });
  const shared = database.engine === 'postgres';
  const ctx: ServiceContext = {
    sql,
    dataDir: options.dataDir,
    tmpDir,
    config: options.config,
    log,
    blobs,
    accounts: new Accounts(sql),
    billing: new Billing(sql),
    videoIndex: new VideoIndex(sql),
    folders: new Folders(sql),
    videos: new Videos(sql),
    // The embedded service is its database's only worker process: it takes back its jobs left running at start. On
    // PostgreSQL any number of workers share the queue: a dead one's jobs wait for their leases to pass.
    jobs: new ServiceJobQueue(sql, log.child({ module: 'jobs' }), { ...options.config.jobs, exclusive: !shared }),
    limits: {
      search: new RateLimiter(sql, limits.searchPerSecond, 1000),
      upload: new RateLimiter(sql, limits.uploadPerMinute, 60_000),
      download: new RateLimiter(sql, limits.downloadPerMinute, 60_000),
    },
    search: search.search,
    semantic: search.semantic,
  };
  const datalake = new Datalake(ctx);
  const closeStores = async (): Promise<void> => {
    await search.close();
    await database.close();
  };
  const worker = role === 'api' ? null : await startWorker(ctx, datalake, options);
  if (role === 'api') await mkdir(datalake.uploadDir, { recursive: true });
  if (role === 'worker') {
    await ctx.jobs.start();
    await search.start();
    return {
      url: null,
      ctx,
      close: async () => {
        await worker?.stop();
        await closeStores();
      },
    };
  }
  const app = await buildHttpServer(ctx, datalake);
  try {
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (err) {
    await worker?.stop();
    await closeStores();
    throw err;
  }
  await search.start();
  if (worker) await ctx.jobs.start();
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    ctx,
    close: async () => {
      await app.close();
      await worker?.stop();
      await closeStores();
    },
  };
}

/**
 * The job side: registers every handler (index, url-upload, callback, datalake) on the queue, not started yet.
 * `stop` stops the queue (running jobs are aborted and their leases released at once, so another worker takes them
 * without waiting) and what the handlers hold.
 */
async function startWorker(
  ctx: ServiceContext,
  datalake: Datalake,
  options: ServiceOptions,
): Promise<{ stop(): Promise<void> }> {
  const { log } = ctx;
  // Analysis runs in a worker thread that keeps the analyzers (models, tesseract) for the service's lifetime, so
  // indexing never stalls the HTTP thread. The thread starts with the first index job; a test may inject its own.
  const analysis = new AnalysisWorker({ log: log.child({ module: 'analysis' }) });
  const exif = new MetadataReader(log);
  await exif.start();
  const analyze: Analyze = options.analyze ?? analysis.analyze;
  const datalakeWorkers = await startDatalakeWorkers(datalake);
  if (!options.config.indexer.paused) {
    const indexSettled = onIndexSettled(ctx);
    ctx.jobs.register({
      kind: 'index',
      concurrency: options.config.indexer.concurrency,
      baseDelayMs: 5_000,
      handler: indexHandler(ctx, analyze, exif),
      laneSql: indexLaneSql(ctx.sql.dialect),
      onSettled: (job, outcome) => {
        indexSettled(job, outcome)
          .then(() => datalakeWorkers.onIndexSettled(job, outcome))
          .catch((err: unknown) => log.error({ err, job: job.id }, 'an index job settle hook failed'));
      },
    });
    // Videos indexed under older index rules, one at a time, behind every index job (and given back when one comes).
    const sweep = new OutdatedSweep(ctx);
    ctx.jobs.register({
      kind: REINDEX_JOB,
      concurrency: 1,
      baseDelayMs: 5_000,
      behind: ['index'],
      handler: reindexHandler(ctx, analyze),
      onSettled: (job, outcome) => {
        logReindexSettled(ctx, job, outcome);
        sweep.settled(job, outcome);
        void datalakeWorkers.onReindexSettled(job, outcome);
      },
    });
    await sweep.start().catch((err: unknown) => log.error({ err }, 'could not queue outdated videos to re-index'));
  }
  const urlUploadSettled = onIndexSettled(ctx);
  ctx.jobs.register({
    kind: URL_UPLOAD_JOB,
    concurrency: 2,
    baseDelayMs: 5_000,
    handler: urlUploadHandler(ctx),
    onSettled: (job, outcome) => {
      urlUploadSettled(job, outcome).catch((err: unknown) =>
        log.error({ err, job: job.id }, 'a url-upload job settle hook failed'),
      );
    },
  });
  ctx.jobs.register({
    kind: 'callback',
    concurrency: 4,
    baseDelayMs: options.config.callbacks.baseDelayMs,
    handler: callbackHandler(ctx),
  });
  return {
    stop: async () => {
      await datalakeWorkers.stop();
      await ctx.jobs.stop();
      await analysis.close();
      await exif.stop();
    },
  };
}
