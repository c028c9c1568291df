import { dirname, join, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { FileView, SyncStatus, WatchFolderView } from '../../shared/contract/sync';
import { AppError, describeError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import type { EventBus } from '../events';
import type { Logger } from '../log';
import type { MetadataReader } from '../media/exif';
import type { Db } from '../store/database';
import { JobsStore } from '../jobs/jobs-store';
import { AppSettings } from '../settings';
import { SyncStore, type FilesQuery } from '../store/sync-store';
import { type FileRow, type PollingMode } from '../store/sync-rows';
import { UploadHistoryStore } from '../store/upload-history-store';
import { backfillMedia } from './media-backfill';
import { backfillIdentities } from '../media/identity-backfill';
import { DEFAULT_SYNC_CONFIG, type SyncConfig, type SyncDeps } from './context';
import { retryAllFailed, syncStatusOf } from './control';
import { examineHandler } from './examine';
import { makeIgnore } from './ignore';
import { pollHandler } from './poll';
import { ClientJobQueue } from '../jobs/client-job-queue';
import { FileRecorder, type RecordCounts } from './recorder';
import { scanTree } from './scanner';
import { uploadHandler } from './upload';
import { detectedEncoder, type EncoderSpec } from '../proxy/encoders';
import { ProxyCache } from '../proxy/proxy-cache';
import { proxyHandler } from '../proxy/proxy-job';
import { ProxySettings } from '../proxy/proxy-settings';
import { ProxyStore } from '../proxy/proxy-store';
import { extensionProblem } from './validator';
import { fileView, watchFolderView } from './views';
import { FolderWatcher } from './watcher';

export interface SyncEngineOptions {
  db: Db;
  client: LibraryClient;
  metadata: MetadataReader;
  events: EventBus;
  logger: Logger;
  config?: Partial<SyncConfig>;
  queueTickMs?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** The proxy cache folder; `proxies` beside the client database by default (the data folder). */
  proxyDir?: string;
  /** The proxy encoder; detected at run time (hardware when one works, else libx264) by default. */
  proxyEncoder?: () => Promise<EncoderSpec>;
}

/** Jobs that work on a content (target: its hash): paused, resumed and cancelled with the file. */
const CONTENT_JOBS = ['proxy', 'upload'] as const;

export interface AddFolderInput {
  path: string;
  folderId?: number;
  folderName?: string;
  tags?: string[];
  ignore?: string[];
  polling?: PollingMode;
}

export interface ScanReport extends RecordCounts {
  folders: number;
  files: number;
  deleted: number;
  errors: number;
  ms: number;
}

/** The sync engine: watch folders -> rows -> job queue -> library. Owns no connection: the db and client are injected. */
export class SyncEngine {
  readonly store: SyncStore;
  readonly jobs: JobsStore;
  readonly history: UploadHistoryStore;
  readonly queue: ClientJobQueue;
  private readonly settings: AppSettings;
  private readonly recorder: FileRecorder;
  private readonly watchers = new Map<number, FolderWatcher>();
  private readonly log: Logger;
  private readonly config: SyncConfig;
  private readonly stopping = new AbortController();
  private backfill: Promise<number> | undefined;

  constructor(private readonly o: SyncEngineOptions) {
    this.log = o.logger.child({ module: 'sync' });
    this.config = { ...DEFAULT_SYNC_CONFIG, ...o.config };
    this.store = new SyncStore(o.db);
    this.jobs = new JobsStore(o.db);
    this.history = new UploadHistoryStore(o.db);
    this.settings = new AppSettings(o.db);
    const proxyStore = new ProxyStore(o.db);
    const proxySettings = new ProxySettings(o.db);
    const proxyDir = o.proxyDir ?? join(dirname(o.db.name), 'proxies');
    const deps: SyncDeps = {
      store: this.store,
      jobs: this.jobs,
      history: this.history,
      client: o.client,
      metadata: o.metadata,
      logger: o.logger,
      config: this.config,
      notify: {
        fileChanged: (id) => this.emitFile(id),
        contentChanged: (hash) => this.store.filesWithHash(hash).forEach((f) => this.emitFile(f.id)),
        progress: (p) => o.events.emit('sync:progress', p),
        proxyProgress: (p) => o.events.emit('sync:proxy-progress', p),
      },
      proxies: {
        store: proxyStore,
        settings: proxySettings,
        cache: new ProxyCache(proxyDir, proxyStore, proxySettings, o.logger.child({ module: 'proxy-cache' })),
        encoder: o.proxyEncoder ?? detectedEncoder,
        // One at a time: an encode takes every core it is given.
        concurrency: 1,
      },
      pauseQueue: (reason) => this.queue.pause(reason),
      wake: () => this.queue.pump(),
    };
    this.queue = new ClientJobQueue({
      jobs: this.jobs,
      pauseState: this.settings.pauseState('sync'),
      handlers: [examineHandler(deps), proxyHandler(deps), uploadHandler(deps), pollHandler(deps)],
      logger: o.logger,
      tickMs: o.queueTickMs,
      backoff: o.backoff,
      onPauseChange: (paused) => o.events.emit('sync:queue', { paused }),
    });
    this.recorder = new FileRecorder(this.store, this.jobs, (id) => this.emitFile(id));
  }

  async start(): Promise<void> {
    await this.queue.start();
    this.backfill ??= backfillMedia({
      store: this.store,
      metadata: this.o.metadata,
      logger: this.o.logger,
      signal: this.stopping.signal,
      onFile: (id) => this.emitFile(id),
    }).then(() => backfillIdentities({ db: this.o.db, logger: this.o.logger, signal: this.stopping.signal }));
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all([...this.watchers.values()].map((w) => w.stop()));
    this.watchers.clear();
    await this.queue.stop();
    await this.backfill;
  }

  // ---- folders (a watch "folder" may also be one video file, watched on its own)
  async addFolder(input: AddFolderInput): Promise<WatchFolderView> {
    const path = resolve(input.path);
    const info = await stat(path).catch(() => null);
    if (!info || (!info.isDirectory() && !info.isFile()))
      throw new AppError('bad_request', `not a folder or a file: ${path}`);
    const byName = info.isFile() ? extensionProblem(path) : null;
    if (byName) throw new AppError('bad_request', `not a video file: ${byName}`);
    const row = this.store.addWatchFolder({
      path,
      folderId: input.folderId ?? null,
      folderName: input.folderName ?? null,
      tags: input.tags ?? [],
      ignore: input.ignore ?? [],
      polling: input.polling ?? 'auto',
    });
    this.log.info({ watchId: row.id, path }, 'watch folder added');
    return watchFolderView(row);
  }

  /**
   * Stops noticing changes in a watch folder. Nothing else changes: its files stay in the library and play from this
   * computer, their uploads and indexing finish; `resumeFolder` (the editor's Undo or "Watch again") picks up from here.
   */
  async stopFolder(id: number): Promise<boolean> {
    await this.watchers.get(id)?.stop();
    this.watchers.delete(id);
    const stopped = this.store.stopWatchFolder(id);
    if (stopped) this.log.info({ watchId: id }, 'stopped watching a folder; its files stay in the library');
    return stopped;
  }

  /** Watches a stopped folder again (the caller scans it: changes made meanwhile are picked up then). */
  resumeFolder(id: number): WatchFolderView {
    const row = this.store.resumeWatchFolder(id);
    if (!row) throw new AppError('not_found', `No watched folder ${id}.`);
    this.log.info({ watchId: id }, 'watching a folder again');
    return watchFolderView(row);
  }

  folders(): WatchFolderView[] {
    return this.store.watchFolders().map(watchFolderView);
  }

  /** Walks every watch folder (or the given ones), recording new and changed files; files gone since are marked deleted. */
  async scan(ids?: number[], signal?: AbortSignal): Promise<ScanReport> {
    const started = Date.now();
    const scan = this.settings.nextScanNumber();
    const report: ScanReport = { folders: 0, files: 0, deleted: 0, errors: 0, new: 0, changed: 0, unchanged: 0, ms: 0 };
    const watched = this.store.watchFolders().filter((f) => f.stopped_at === null);
    for (const folder of watched.filter((f) => !ids || ids.includes(f.id))) {
      report.folders++;
      const summary = await scanTree(folder.path, {
        ignore: makeIgnore(folder.path, folder.ignore),
        signal,
        onBatch: (batch) => {
          const c = this.recorder.record(folder, batch, scan);
          report.new += c.new;
          report.changed += c.changed;
          report.unchanged += c.unchanged;
          if (c.new + c.changed > 0) this.queue.pump();
        },
        onError: (path, err) => this.log.warn({ path, err: describeError(err) }, 'scan error'),
      });
      report.files += summary.files;
      report.errors += summary.errors;
      const gone = this.store.markUnseenDeleted(folder.id, scan);
      report.deleted += gone.length;
      gone.forEach((f) => this.emitGone(f));
    }
    report.ms = Date.now() - started;
    this.log.info(report, 'scan done');
    return report;
  }

  /** Starts live watching of every watch folder (after a scan, which covers what is already there). */
  async watch(): Promise<void> {
    for (const folder of this.store.watchFolders()) {
      if (this.watchers.has(folder.id) || folder.stopped_at !== null) continue;
      const w = new FolderWatcher(
        folder,
        {
          onFile: (f, path, size, mtimeMs) => {
            this.recorder.record(f, [{ path, size, mtimeMs }]);
            this.queue.pump();
          },
          onGone: (_f, path) => {
            const row = this.store.markDeleted(path);
            if (row) this.emitGone(row);
          },
        },
        this.o.logger,
      );
      await w.start();
      this.watchers.set(folder.id, w);
    }
  }

  // ---- status
  status(): SyncStatus {
    return syncStatusOf(this.o.db);
  }

  files(page: number, size: number, query: FilesQuery = {}): { files: FileView[]; total: number } {
    const { rows, total } = this.store.filesPage(page, size, query);
    return { files: rows.map((f) => this.view(f.id)).filter((v): v is FileView => v !== undefined), total };
  }

  codecs(): string[] {
    return this.store.fileCodecs();
  }

  cameras(): string[] {
    return this.store.fileCameras();
  }

  view(id: number): FileView | undefined {
    const f = this.store.file(id);
    if (!f) return undefined;
    // A deleted file keeps its content's video: it still opens from the library and can be removed from it.
    const content = f.hash && (f.state === 'linked' || f.state === 'deleted') ? this.store.content(f.hash) : undefined;
    const first = content ? this.store.filesWithHash(content.hash)[0]?.id : undefined;
    return fileView(f, content, first);
  }

  // ---- control
  pause(fileId?: number): boolean {
    if (fileId === undefined) {
      this.queue.pause('user');
      return true;
    }
    const f = this.requireFile(fileId);
    this.store.setFilePaused(fileId, true);
    this.jobs.setPaused('examine', String(fileId), true);
    this.queue.abortTarget('examine', String(fileId), 'pause');
    if (f.hash)
      for (const kind of CONTENT_JOBS) {
        this.jobs.setPaused(kind, f.hash, true);
        this.queue.abortTarget(kind, f.hash, 'pause');
      }
    this.emitFile(fileId);
    return true;
  }

  resume(fileId?: number): boolean {
    if (fileId === undefined) {
      this.queue.resume();
      return true;
    }
    const f = this.requireFile(fileId);
    this.store.setFilePaused(fileId, false);
    this.jobs.setPaused('examine', String(fileId), false);
    if (f.hash) for (const kind of CONTENT_JOBS) this.jobs.setPaused(kind, f.hash, false);
    this.emitFile(fileId);
    this.queue.pump();
    return true;
  }

  /** Failed work queued again: all of it, or one file's (a skipped file is examined again). */
  retry(fileId?: number): number {
    let n = 0;
    if (fileId === undefined) {
      n = retryAllFailed(this.o.db);
    } else {
      const f = this.requireFile(fileId);
      if (f.state === 'skipped' || f.state === 'pending') {
        this.store.setFileState(fileId, 'pending', null);
        this.jobs.enqueue('examine', String(fileId), 0);
        n = 1;
      } else if (f.hash) {
        const content = this.store.content(f.hash);
        const rows = [
          ...this.jobs.retryFailed({ kind: 'proxy', target: f.hash }),
          ...this.jobs.retryFailed({ kind: 'upload', target: f.hash }),
          ...this.jobs.retryFailed({ kind: 'poll', target: f.hash }),
        ];
        if (
          rows.length === 0 &&
          content &&
          (content.state === 'failed' || content.state === 'cancelled') &&
          !content.video_no
        ) {
          this.jobs.enqueue('upload', f.hash, 0);
          rows.push(...[this.jobs.open('upload', f.hash)].filter((r) => r !== undefined));
        }
        if (content && !content.video_no) this.store.setContentState(f.hash, 'queued', null);
        n = rows.length;
      }
      this.emitFile(fileId);
    }
    this.queue.pump();
    return n;
  }

  cancel(fileId: number): boolean {
    const f = this.requireFile(fileId);
    this.jobs.cancelOpen('examine', String(fileId));
    this.queue.abortTarget('examine', String(fileId), 'cancel');
    if (f.hash) {
      const content = this.store.content(f.hash);
      if (content && !content.video_no) {
        for (const kind of CONTENT_JOBS) {
          this.jobs.cancelOpen(kind, f.hash);
          this.queue.abortTarget(kind, f.hash, 'cancel');
        }
        this.store.setContentState(f.hash, 'cancelled', 'cancelled by the user');
      }
    }
    this.emitFile(fileId);
    return true;
  }

  waitForIdle(): Promise<void> {
    return this.queue.waitForIdle();
  }

  private requireFile(id: number): NonNullable<ReturnType<SyncStore['file']>> {
    const f = this.store.file(id);
    if (!f) throw new AppError('not_found', `no file ${id}`);
    return f;
  }

  /** A file gone from disk: a ghost dropped at once when its content lives on under another name (a rename). */
  private emitGone(row: FileRow): void {
    const dropped = row.hash ? this.store.dropMovedGhosts(row.hash) : [];
    if (!dropped.includes(row.id)) return this.emitFile(row.id);
    this.o.events.emit('sync:file-changed', { id: row.id, path: row.path, status: 'deleted', reason: null });
  }

  private emitFile(id: number): void {
    const v = this.view(id);
    if (v) this.o.events.emit('sync:file-changed', { id: v.id, path: v.path, status: v.status, reason: v.reason });
  }
}
