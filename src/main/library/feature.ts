import { join } from 'node:path';
import { ensurePrivateDir } from '../../common/private-files';
import { AppError } from '../../shared/errors';
import { LibraryClient } from '../api/client';
import { BlobDownloader } from '../api/download';
import { LocalOriginals } from '../sync';
import { OriginalIdentities } from '../media/identities';
import { SqliteIdentityStore } from '../media/identity-store';
import type { EventBus } from '../events';
import type { Logger } from '../log';
import { ClipsStore } from './clips-store';
import type { Db } from '../store/database';
import { DownloadStore } from './download-store';
import { JobsStore } from '../jobs/jobs-store';
import { LibraryCacheStore } from '../store/library-cache-store';
import { AppSettings } from '../settings';
import { ClientJobQueue, type PauseReason } from '../jobs/client-job-queue';
import type { LibraryBlock } from '../api/job-outcome';
import { clipHandler } from './clip-job';
import { ClipsService } from './clips-service';
import { Connectivity } from './connectivity';
import { DestinationPolicy, type DestinationChooser } from './destinations/policy';
import { downloadHandler } from './download-job';
import { DownloadManager } from './download-manager';
import { ThumbnailCache } from './thumb-cache';

export interface LibraryFeatureOptions {
  db: Db;
  /** Root of the library's own folders: clips/, downloads/ (with originals/ for cutting), thumbnails/, clip-thumbnails/. */
  dataDir: string;
  events: EventBus;
  logger: Logger;
  /** The library service; without it everything local (clips, cached thumbnails, last results) still works. */
  service?: { baseUrl: string; key: string };
  thumbnailCacheBytes?: number;
  queueTickMs?: number;
  backoff?: { baseMs: number; maxMs: number };
  downloadAttempts?: number;
  probeConnectivity?: boolean;
  /** After a refused key or an empty balance paused the queue, how long before it tries again (default 60 s). */
  blockedRecheckMs?: number;
  /** The desktop shell's native dialogs (Electron); the web mode and the command line have none. */
  chooser?: () => DestinationChooser | undefined;
}

/** Downloads, clips, thumbnail cache and connectivity over one client database: start/stop. */
export class LibraryFeature {
  readonly folders: {
    clips: string;
    exports: string;
    downloads: string;
    originals: string;
    thumbnails: string;
    clipThumbnails: string;
  };
  /** Where the channels may write: dialog grants and allowed roots. */
  readonly destinations: DestinationPolicy;
  readonly downloads: DownloadManager;
  readonly clips: ClipsService;
  /** Timecode, reel and camera of local originals and clip files (exports, clips cut from originals). */
  readonly identities: OriginalIdentities;
  readonly thumbnails: ThumbnailCache;
  readonly queue: ClientJobQueue;
  readonly client: LibraryClient | null;
  readonly downloader: BlobDownloader | null;
  readonly connectivity: Connectivity | null;
  private readonly savedFiles: { clips: ClipsStore; downloads: DownloadStore };
  private recheck: NodeJS.Timeout | undefined;
  private readonly blockedListeners = new Set<(reason: LibraryBlock) => void>();

  constructor(private readonly o: LibraryFeatureOptions) {
    const root = o.dataDir;
    this.folders = {
      clips: join(root, 'clips'),
      exports: join(root, 'exports'),
      downloads: join(root, 'downloads'),
      originals: join(root, 'downloads', 'originals'),
      thumbnails: join(root, 'thumbnails'),
      clipThumbnails: join(root, 'clip-thumbnails'),
    };
    const logger = o.logger;
    this.client = o.service ? new LibraryClient({ ...o.service, logger }) : null;
    this.downloader = o.service ? new BlobDownloader({ ...o.service, logger }) : null;
    const jobs = new JobsStore(o.db);
    const downloadStore = new DownloadStore(o.db);
    const cacheStore = new LibraryCacheStore(o.db);
    const clipsStore = new ClipsStore(o.db);
    const originals = new LocalOriginals(o.db);
    this.identities = new OriginalIdentities(new SqliteIdentityStore(o.db), logger);
    this.savedFiles = { clips: clipsStore, downloads: downloadStore };
    this.destinations = new DestinationPolicy({
      dataDir: root,
      builtin: { clips: this.folders.clips, exports: this.folders.exports, downloads: this.folders.downloads },
      settings: new AppSettings(o.db),
      chooser: o.chooser ?? (() => undefined),
    });
    const abort = (kind: 'download' | 'clip') => (target: string) => this.queue.abortTarget(kind, target, 'cancel');
    this.downloads = new DownloadManager({
      store: downloadStore,
      jobs,
      client: () => this.client,
      defaultDir: this.folders.downloads,
      wake: () => this.queue.pump(),
      abort: abort('download'),
      emit: (p) => o.events.emit('downloads:progress', p),
    });
    this.clips = new ClipsService({
      store: clipsStore,
      jobs,
      defaultDir: () => this.destinations.clipsDir(),
      wake: () => this.queue.pump(),
      abort: abort('clip'),
      emit: (id, clip) => o.events.emit('clips:changed', { id, clip }),
      originalOf: (videoNo) => originals.pathOf(videoNo),
      identityOf: (path) => this.identities.identityOf(path),
    });
    this.thumbnails = new ThumbnailCache({
      dir: this.folders.thumbnails,
      store: cacheStore,
      maxBytes: o.thumbnailCacheBytes ?? 256 * 1024 * 1024,
      downloader: () => this.downloader,
      logger,
    });
    this.queue = new ClientJobQueue({
      jobs,
      pauseState: new AppSettings(o.db).pauseState('library'),
      handlers: [
        downloadHandler({
          store: downloadStore,
          downloader: () => this.downloader,
          logger,
          pause: (reason) => this.queue.pause(reason),
          notify: (row, live) => this.downloads.notify(row, live),
          maxAttempts: o.downloadAttempts,
        }),
        clipHandler({
          store: clipsStore,
          originals: new LocalOriginals(o.db),
          downloads: this.downloads,
          client: () => this.client,
          originalsDir: this.folders.originals,
          identityOf: (path) => this.identities.identityOf(path),
          thumbsDir: this.folders.clipThumbnails,
          logger,
          pause: (reason) => this.queue.pause(reason),
          notify: (row) => this.clips.notify(row),
        }),
      ],
      logger,
      tickMs: o.queueTickMs,
      backoff: o.backoff,
      onPauseChange: (paused) => this.blocked(paused?.reason),
    });
    this.connectivity =
      this.client && o.probeConnectivity !== false
        ? new Connectivity(this.client, (s) => o.events.emit('library:connectivity', s))
        : null;
  }

  async start(): Promise<void> {
    for (const dir of Object.values(this.folders)) await ensurePrivateDir(dir);
    // A start is a new chance for work a refused key or an empty balance paused: the first job that meets it again
    // pauses the queue again.
    const reason = this.queue.paused()?.reason;
    if (reason === 'insufficient-balance' || reason === 'unauthorized') this.queue.resume();
    await this.queue.start();
    this.connectivity?.start();
  }

  async stop(): Promise<void> {
    clearTimeout(this.recheck);
    this.connectivity?.stop();
    await this.queue.stop();
    await this.downloader?.close();
    await this.client?.close();
  }

  /**
   * Resolves as `settled` does, or with the reason when a refused key or an empty balance pauses the queue first (the
   * command line stops waiting then; the app keeps the work queued).
   */
  async settledOrBlocked<T>(settled: Promise<T>): Promise<T | { blocked: LibraryBlock }> {
    let listener: ((reason: LibraryBlock) => void) | undefined;
    const blocked = new Promise<{ blocked: LibraryBlock }>((resolve) => {
      listener = (reason) => resolve({ blocked: reason });
      this.blockedListeners.add(listener);
    });
    try {
      return await Promise.race([settled, blocked]);
    } finally {
      if (listener) this.blockedListeners.delete(listener);
    }
  }

  /** A pause by a refused key or an empty balance lasts until the next try, `blockedRecheckMs` later. */
  private blocked(reason: PauseReason | undefined): void {
    clearTimeout(this.recheck);
    if (reason !== 'insufficient-balance' && reason !== 'unauthorized') return;
    for (const l of this.blockedListeners) l(reason);
    this.recheck = setTimeout(() => this.queue.resume(), this.o.blockedRecheckMs ?? 60_000);
    this.recheck.unref();
  }

  /** The service client, or an `offline` AppError for the channels that need the service. */
  /**
   * Whether `path` is a clip or download the library saved there: those may sit in any folder the user chose in a
   * save dialog, so the media routes serve them by exact path (never their folder's other files).
   */
  savedFile(path: string): boolean {
    return this.savedFiles.clips.hasFile(path) || this.savedFiles.downloads.hasFile(path);
  }

  requireClient(): LibraryClient {
    if (!this.client) throw new AppError('offline', 'no library service is configured');
    return this.client;
  }
}
