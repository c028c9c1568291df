import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { MetadataReader } from '../common/media/exif';
import { Accounts } from './accounts/accounts';
import { Billing } from './accounts/billing';
import type { ServiceConfig } from './config';
import type { ServiceContext } from './context';
import { buildHttpServer } from './http/server';
import { callbackHandler } from './jobs/callback-worker';
import { Datalake } from './datalake/datalake';
import { startDatalakeWorkers } from './datalake/workers';
import { AnalysisWorker } from './indexer/worker/analysis-host';
import { indexLaneSql } from './jobs/index-rows';
import { indexHandler, onIndexSettled, type Analyze } from './jobs/index-worker';
import { ServiceJobQueue } from './jobs/job-queue';
import { Folders } from './library/folders';
import { URL_UPLOAD_JOB, urlUploadHandler } from './library/url-upload';
import { VideoIndex } from './library/video-index';
import { Videos } from './library/videos';
import { RateLimiter } from './limits/rate-limiter';
import { SearchCache } from './search/search-cache';
import { SearchPool } from './search/search-pool';
import { withSemantic } from './semantic/semantic-search';
import { SemanticSlot } from './semantic/semantic-slot';
import { openServiceDb, serviceDbFile } from './storage/db';
import { openBlobStore } from './storage/open-blob-store';
import { SqliteSql } from './storage/sqlite-sql';

export interface ServiceOptions {
  dataDir: string;
  config: ServiceConfig;
  host?: string;
  port?: number;
  log?: Logger;
  /** The indexer's analysis step; the real one unless a test narrows it. */
  analyze?: Analyze;
}

export interface RunningService {
  url: string;
  ctx: ServiceContext;
  close(): Promise<void>;
}

export function serviceLogger(): Logger {
  return pino({ name: 'reelsync-service', level: process.env.REELSYNC_LOG ?? 'info' }, pino.destination(2));
}

/** Opens the data folder, starts the job workers and listens on HTTP. */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const log = options.log ?? serviceLogger();
  const tmpDir = join(options.dataDir, 'tmp');
  await rm(tmpDir, { recursive: true, force: true }); // partial uploads and scratch of a previous run
  await mkdir(tmpDir, { recursive: true });
  const blobs = await openBlobStore(options.config, options.dataDir, tmpDir);
  await blobs.check();
  const db = openServiceDb(options.dataDir);
  const sql = new SqliteSql(db);
  const { limits } = options.config;
  const search = new SearchPool({
    dbFile: serviceDbFile(options.dataDir),
    workers: options.config.search.workers,
    log: log.child({ module: 'search' }),
  });
  const semantic = new SemanticSlot({
    dataDir: options.dataDir,
    config: options.config.semantic,
    sql,
    blobs,
    log: log.child({ module: 'semantic' }),
  });
  const ctx: ServiceContext = {
    db,
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
    // The embedded service is its database's only worker process: it takes back its jobs left running at start.
    jobs: new ServiceJobQueue(sql, log.child({ module: 'jobs' }), { ...options.config.jobs, exclusive: true }),
    limits: {
      search: new RateLimiter(sql, limits.searchPerSecond, 1000),
      upload: new RateLimiter(sql, limits.uploadPerMinute, 60_000),
      download: new RateLimiter(sql, limits.downloadPerMinute, 60_000),
    },
    search: withSemantic(search, semantic),
    searchCache: new SearchCache(db),
    semantic,
  };
  // Analysis runs in a worker thread that keeps the analyzers (models, tesseract) for the service's lifetime, so
  // indexing never stalls the HTTP thread. The thread starts with the first index job; a test may inject its own.
  const analysis = new AnalysisWorker({ log: log.child({ module: 'analysis' }) });
  const exif = new MetadataReader(log);
  await exif.start();
  const analyze: Analyze = options.analyze ?? analysis.analyze;
  const datalake = new Datalake(ctx);
  const datalakeWorkers = await startDatalakeWorkers(datalake);
  if (!options.config.indexer.paused) {
    const indexSettled = onIndexSettled(ctx);
    ctx.jobs.register({
      kind: 'index',
      concurrency: options.config.indexer.concurrency,
      baseDelayMs: 5_000,
      handler: indexHandler(ctx, analyze, exif),
      laneSql: indexLaneSql(sql.dialect),
      onSettled: (job, outcome) => {
        indexSettled(job, outcome)
          .then(() => datalakeWorkers.onIndexSettled(job, outcome))
          .catch((err: unknown) => log.error({ err, job: job.id }, 'an index job settle hook failed'));
      },
    });
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

  const app = await buildHttpServer(ctx, datalake);
  try {
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (err) {
    await datalakeWorkers.stop();
    await search.close();
    db.close();
    throw err;
  }
  search.start();
  await ctx.jobs.start();
  await semantic.start();
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    ctx,
    close: async () => {
      await app.close();
      await datalakeWorkers.stop();
      await ctx.jobs.stop();
      await semantic.stop();
      await analysis.close();
      await exif.stop();
      await search.close();
      db.close();
    },
  };
}
