import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { SemanticState } from '../../shared/semantic-state';
import type { BlobStore } from '../storage/blob-store';
import type { Sql } from '../storage/sql';
import { loadClipEmbedder, type Embedder } from './clip-embedder';
import { EmbedBacklog } from './embed-backlog';
import { EmbedClaims } from './embed-claims';
import { EmbeddingStore } from './embedding-store';
import { ModelCache, type CompleteMarker } from './model-cache';
import { plainDownloadFailure } from './download-words';
import { downloadModel, expectedModelBytes, type DownloadProgress } from './model-download';
import { installModel, planInstall, type InstallPlan } from './model-install';
import { ModelRequests } from './model-requests';
import { ModelSourceError } from './model-source';
import { invalidInput } from '../domain-errors';
import type { SemanticConfig } from './semantic-config';
import { SharedModelStore } from './shared-model-store';
import { TeamModelFetch, type TeamFetchOutcome } from './team-model-fetch';

export interface SemanticSlotOptions {
  dataDir: string;
  config: SemanticConfig;
  sql: Sql;
  blobs: BlobStore;
  log: Logger;
  /**
   * Whether this process embeds the keyframes waiting for the model (a process that runs jobs: role all or worker).
   * An API replica loads the model only to embed query text.
   */
  embedsKeyframes: boolean;
  /**
   * Other processes share the database (PostgreSQL): look at it every `semantic.pollMs`. The embedded service is its
   * database's only process and learns everything in-process.
   */
  sharedDatabase: boolean;
  /** How long a claim on a batch of keyframes lasts before another process may take it over (default 2 min). */
  claimMs?: number;
  /** Loads the model from the cache; the real one (transformers.js) unless a test narrows it. */
  load?: (modelsRoot: string, config: SemanticConfig) => Promise<Embedder>;
}

type Phase =
  | { kind: 'idle' }
  | {
      kind: 'downloading';
      progress: DownloadProgress;
      since: { at: number; bytes: number } | null;
      /** Installing from this folder or archive rather than downloading. */
      installing: string | null;
    }
  /** Another process of the team fetches the model from its host; this one copies it from the team store after. */
  | { kind: 'waiting' }
  | { kind: 'failed'; reason: string };

/** A batch of 8 keyframes takes seconds to fetch and embed; a claim outlives that by far. */
const DEFAULT_CLAIM_MS = 120_000;

/**
 * The semantic model slot: downloads the configured CLIP-class model on request (model-download.ts), loads it on
 * first use, embeds keyframes (embed-backlog.ts, in job-running processes only) and query text. Until the model is
 * complete in the cache, search goes on without it: "semantic search: off (model not downloaded)". On a shared
 * database, every `semantic.pollMs` it looks there: for a download asked for on another process (model-requests.ts),
 * and, once the model is here, for keyframes left to embed (indexed by another worker, or given up by a dead one).
 */
export class SemanticSlot {
  readonly cache: ModelCache;
  private readonly store: EmbeddingStore;
  private readonly backlog: EmbedBacklog;
  private phase: Phase = { kind: 'idle' };
  private marker: CompleteMarker | null = null;
  private embedder: Promise<Embedder> | null = null;
  private loadError: string | null = null;
  private download: { abort: AbortController; done: Promise<void> } | null = null;
  private readonly requests: ModelRequests;
  /** On a shared database: the model is fetched from its host once per team (team-model-fetch.ts). */
  private readonly teamFetch: TeamModelFetch | null;
  /** The stamp of the latest ask (model-requests.ts) this process's download answered: a newer one is tried again. */
  private answered: number | null = null;
  private poll: NodeJS.Timeout | null = null;
  /** The model's size as its host states it, asked once while the slot is off (what the download would cost). */
  private expected: { bytes: number | null; at: number } | null = null;
  private sizing: Promise<void> | null = null;
  private looking: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: SemanticSlotOptions) {
    this.cache = new ModelCache(options.dataDir);
    this.store = new EmbeddingStore(options.sql);
    this.requests = new ModelRequests(options.sql);
    const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const claims = new EmbedClaims(options.sql, owner, options.claimMs ?? DEFAULT_CLAIM_MS);
    this.backlog = new EmbedBacklog(this.store, claims, options.blobs, options.log);
    this.teamFetch = options.sharedDatabase
      ? new TeamModelFetch(
          this.requests,
          new SharedModelStore(options.blobs),
          owner,
          options.log,
          options.config.fetchLeaseMs,
        )
      : null;
  }

  get config(): SemanticConfig {
    return this.options.config;
  }

  /**
   * Reads the cache; goes on with a download a previous run left unfinished or another process asked for, or with the
   * keyframes left to embed; then, on a shared database, looks again every `pollMs`.
   */
  async start(): Promise<void> {
    this.marker = await this.cache.complete(this.config);
    if (this.marker) void this.embedPending();
    else {
      // The embedded service keeps to its cache's marker: a model folder deleted to free the disk stays deleted.
      if (this.options.sharedDatabase) this.answered = await this.requests.requestedAt(this.config);
      if (this.answered !== null || (await this.cache.requested(this.config))) this.beginDownload();
    }
    if (!this.options.sharedDatabase) return;
    this.poll = setInterval(() => {
      this.looking ??= this.look().finally(() => {
        this.looking = null;
      });
    }, this.config.pollMs);
    this.poll.unref();
  }

  /**
   * One look at the shared database (start's doc). A download that failed is tried again only when asked for again
   * (a newer stamp) or once another process published the model in the team store, not at every look.
   */
  private async look(): Promise<void> {
    try {
      if (this.marker) return await this.embedPending();
      if (this.download || this.stopped) return;
      const asked = await this.requests.requestedAt(this.config);
      if (asked === null || this.stopped) return;
      // A process whose fetch failed (no way out to the host, say) takes the model once another published it.
      const failed = this.phase.kind === 'failed';
      const again = failed && (asked !== this.answered || (await this.teamFetch?.published(this.config)) === true);
      if (this.phase.kind === 'idle' || this.phase.kind === 'waiting' || again) {
        this.answered = asked;
        this.beginDownload();
      }
    } catch (err) {
      this.options.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'semantic slot check failed');
    }
  }

  async state(): Promise<SemanticState> {
    const model = this.config.model;
    if (this.phase.kind === 'downloading') {
      const { receivedBytes, totalBytes, file } = this.phase.progress;
      const percent = totalBytes ? Math.min(100, (100 * receivedBytes) / totalBytes) : null;
      const since = this.phase.since;
      const seconds = since ? (Date.now() - since.at) / 1000 : 0;
      const bytesPerSecond = since && seconds >= 0.5 ? Math.max(0, receivedBytes - since.bytes) / seconds : null;
      const from = this.phase.installing ?? undefined;
      return { state: 'downloading', model, receivedBytes, totalBytes, percent, bytesPerSecond, file, from };
    }
    if (this.marker) {
      if (this.loadError) return { state: 'failed', model, reason: this.loadError };
      return {
        state: 'ready',
        model,
        sizeBytes: this.marker.sizeBytes,
        embeddedSegments: await this.store.embedded(model),
        pendingSegments: await this.store.pendingCount(model),
      };
    }
    if (this.phase.kind === 'failed') return { state: 'failed', model, reason: this.phase.reason };
    if (this.phase.kind === 'waiting') {
      // The bytes the process fetching it reported with its lease.
      const lease = await this.requests.fetchLease(this.config);
      const receivedBytes = lease?.fetchedBytes ?? 0;
      const totalBytes = lease?.totalBytes ?? null;
      const percent = totalBytes ? Math.min(100, (100 * receivedBytes) / totalBytes) : null;
      return { state: 'downloading', model, receivedBytes, totalBytes, percent, bytesPerSecond: null, file: '' };
    }
    this.askSize();
    return { state: 'off', model, reason: 'model not downloaded', expectedBytes: this.expected?.bytes ?? null };
  }

  /** Asks the host what the model weighs, in the background, at most every 10 minutes (none when it is unreachable). */
  private askSize(): void {
    if (this.sizing || this.stopped || (this.expected && Date.now() - this.expected.at < 600_000)) return;
    this.sizing = expectedModelBytes(this.config, AbortSignal.timeout(20_000))
      .then(
        (bytes) => {
          this.expected = { bytes, at: Date.now() };
        },
        () => {
          this.expected = { bytes: null, at: Date.now() };
        },
      )
      .finally(() => {
        this.sizing = null;
      });
  }

  /**
   * Stops a download under way (the editor's Cancel): the slot is off again and the next start does not resume it;
   * the part files stay, so a later download goes on from them.
   */
  async cancelDownload(): Promise<SemanticState> {
    const running = this.download;
    if (running) {
      running.abort.abort();
      await running.done;
    }
    await this.cache.unmarkRequested(this.config);
    if (this.phase.kind === 'failed' || this.phase.kind === 'waiting') this.phase = { kind: 'idle' };
    this.options.log.info({ model: this.config.model }, 'semantic model download cancelled');
    return this.state();
  }

  /**
   * Starts the download unless it runs or the model is here (a failed load is retried), and answers the state. The ask
   * is recorded in the database, where every other process of a team server finds it.
   */
  async startDownload(): Promise<SemanticState> {
    this.answered = await this.requests.mark(this.config);
    this.beginDownload();
    return this.state();
  }

  private beginDownload(): void {
    if (this.marker && this.loadError) {
      this.loadError = null;
      this.embedder = null;
      void this.embedPending();
    }
    if (this.download || this.marker) return;
    this.fetchInBackground(null, async (onProgress, signal) => {
      await this.cache.markRequested(this.config);
      return this.teamFetch
        ? this.teamFetch.acquire(this.config, this.cache, onProgress, signal)
        : { kind: 'ready', marker: await downloadModel(this.config, this.cache, onProgress, signal), from: 'host' };
    });
  }

  /**
   * Installs the model from a folder or a .zip/.tar an editor brought (an offline machine): checked first, in plain
   * words naming what is missing or wrong (a refusal, nothing copied); then copied into the cache with progress, in
   * the background, and loaded once there so a model that cannot run says so at once.
   */
  async installFrom(path: string): Promise<SemanticState> {
    if (this.options.sharedDatabase)
      throw invalidInput(
        'A team library fetches its model from its host for every process; install from a folder works on a library of one machine.',
      );
    if (this.download) throw invalidInput('The model is being downloaded or installed: cancel that first.');
    if (this.marker && !this.loadError) throw invalidInput(`The model ${this.config.model} is already installed.`);
    let plan: InstallPlan;
    try {
      plan = await planInstall(this.config, path);
    } catch (err) {
      if (err instanceof ModelSourceError) throw invalidInput(err.message);
      throw err;
    }
    this.loadError = null;
    this.embedder = null;
    this.marker = null;
    this.fetchInBackground(path, async (onProgress, signal) => ({
      kind: 'ready',
      marker: await installModel(this.config, this.cache, plan, onProgress, signal),
      from: 'folder',
    }));
    return this.state();
  }

  private fetchInBackground(
    installing: string | null,
    fetch: (
      onProgress: (p: DownloadProgress) => void,
      signal: AbortSignal,
    ) => Promise<TeamFetchOutcome | { kind: 'ready'; marker: CompleteMarker; from: 'folder' }>,
  ): void {
    const abort = new AbortController();
    const log = this.options.log.child({ model: this.config.model, host: installing ?? this.config.host });
    // A process waiting for another's fetch looks again every pollMs: it says so once.
    if (this.phase.kind !== 'waiting') {
      const progress = { file: '', receivedBytes: 0, totalBytes: null };
      this.phase = { kind: 'downloading', progress, since: null, installing };
      log.info(installing ? 'semantic model install started' : 'semantic model download started');
    }
    const onProgress = (progress: DownloadProgress): void => {
      // The first report counts the bytes resumed from disk: the rate starts after it.
      const since = this.phase.kind === 'downloading' ? this.phase.since : null;
      const at = since ?? { at: Date.now(), bytes: progress.receivedBytes };
      this.phase = { kind: 'downloading', progress, since: at, installing };
    };
    const done = (async () => {
      try {
        const fetched = await fetch(onProgress, abort.signal);
        if (fetched.kind === 'waiting') {
          this.phase = { kind: 'waiting' };
          return;
        }
        // An installed model is loaded before it is called ready: one that cannot run says so on the card at once.
        if (installing) await this.loaded().catch(() => undefined);
        this.marker = fetched.marker;
        this.phase = { kind: 'idle' };
        log.info({ bytes: this.marker.sizeBytes, from: fetched.from }, 'semantic model downloaded');
        void this.embedPending();
      } catch (err) {
        const reason =
          err instanceof ModelSourceError ? err.message : plainDownloadFailure(err, installing ?? this.config.host);
        this.phase = abort.signal.aborted ? { kind: 'idle' } : { kind: 'failed', reason };
        if (!abort.signal.aborted) log.warn({ err: reason }, 'semantic model download failed');
      } finally {
        this.download = null;
      }
    })();
    this.download = { abort, done };
  }

  /**
   * Embeds the keyframes without a vector (a video just indexed, or ones indexed before the model came), in a process
   * that runs jobs; an API replica leaves them to the workers.
   */
  embedPending(): Promise<void> {
    if (!this.options.embedsKeyframes || !this.marker || this.loadError) return Promise.resolve();
    return this.backlog
      .drain(this.config.model, () => this.loaded())
      .catch((err: unknown) => {
        this.options.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'keyframe embedding stopped');
      });
  }

  /** The query's embedding, or null when the model is not ready (search then ranks by keywords alone). */
  async queryVector(text: string): Promise<Float32Array | null> {
    if (!this.marker || this.loadError) return null;
    try {
      return await (await this.loaded()).embedText(text);
    } catch (err) {
      this.options.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'query embedding failed');
      return null;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    // The backlog first: it ends its pass at the current batch, which a look may be waiting for.
    await this.backlog.stop();
    await this.looking;
    if (this.download) {
      this.download.abort.abort();
      await this.download.done;
    }
    const embedder = await this.embedder?.catch(() => null);
    await embedder?.close();
  }

  private loaded(): Promise<Embedder> {
    const load = this.options.load ?? loadClipEmbedder;
    this.embedder ??= load(this.cache.root, this.config).catch((err: unknown) => {
      this.loadError = `the model failed to load: ${err instanceof Error ? err.message : String(err)}`;
      this.options.log.warn({ err: this.loadError }, 'semantic model failed to load');
      throw err;
    });
    return this.embedder;
  }
}
