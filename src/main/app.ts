import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir } from '../common/private-files';
import { AppError, describeError } from '../shared/errors';
import { LibraryClient } from './api/client';
import { registerDesktopHandlers, type DesktopHooks } from './browse/desktop';
import { osReveal } from './browse/os-reveal';
import { removeFromLibrary } from './browse/remove-from-library';
import { BrowseServices } from './browse/services';
import { EventBus } from './events';
import { HandlerRegistry } from './ipc/registry';
import type { DestinationChooser } from './library/destinations/policy';
import { refuseSystemFolder } from './library/destinations/watch-folders';
import { LibraryFeature } from './library/feature';
import { registerLibraryHandlers } from './library/handlers';
import { createLogger, type Logger } from './log';
import { MetadataReader } from './media/exif';
import { openDatabase, type Db } from './store/database';
import { SyncStore } from './store/sync-store';
import { UploadHistoryStore } from './store/upload-history-store';
import { SyncEngine } from './sync/engine';
import { databaseVault, type KeyVault } from './settings/key-vault';
import type { EmbeddedLaunch } from './service/embedded';
import { registerServiceHandlers } from './service/handlers';
import { registerSemanticHandlers } from './semantic/handlers';
import { APP_VERSION } from './version';

export type AppMode = 'electron' | 'web' | 'cli';

export interface AppOptions {
  dataDir: string;
  mode: AppMode;
  logger?: Logger;
  /** The library service the sync engine talks to; without it the sync channels answer `offline`. */
  library?: { baseUrl: string; key: string };
  /** Without `library`: connect as the saved settings say (the embedded service by default, or the cloud endpoint). */
  connect?: boolean;
  /** Seals stored API keys (safeStorage in Electron); the client database otherwise. */
  vault?: KeyVault;
  /** How the embedded service is started: the Electron shell passes its utilityProcess forker; Node forks otherwise. */
  embedded?: EmbeddedLaunch;
}

/** Composition root: builds the services and registers the contract handlers. No electron import. */
export class ReelsyncApp {
  readonly registry: HandlerRegistry;
  readonly events = new EventBus();
  readonly log: Logger;
  private db: Db | undefined;
  private sync: { engine: SyncEngine; client: LibraryClient; metadata: MetadataReader } | undefined;
  private readonly startedAt = Date.now();
  private libraryFeature: LibraryFeature | undefined;
  private stopRemoteDelete: (() => void) | undefined;
  readonly browse: BrowseServices;
  /** Installed by the Electron shell: drag-out and reveal of clip files. */
  desktop: DesktopHooks | undefined;
  /** Installed by the Electron shell: native save/open dialogs that grant destinations. */
  chooser: DestinationChooser | undefined;

  constructor(private readonly options: AppOptions) {
    this.log = (options.logger ?? createLogger()).child({ module: 'app' });
    this.registry = new HandlerRegistry(this.log.child({ module: 'ipc' }));
    this.browse = new BrowseServices({
      dataDir: options.dataDir,
      db: () => this.database,
      client: () => this.sync?.client,
      watchedPaths: () => this.sync?.engine.folders().map((f) => f.path) ?? [],
      vault: options.vault ?? databaseVault,
      events: this.events,
      logger: this.log,
      recordSearch: (request, hits) => this.libraryFeature?.searchCache.record(request, hits),
      thumbnails: () => this.libraryFeature?.thumbnails,
      launch: options.embedded,
    });
    this.registerHandlers();
  }

  /** Clips, downloads, thumbnail cache, last results: there from start() on, with or without a library service. */
  get library(): LibraryFeature {
    if (!this.libraryFeature) throw new AppError('offline', 'app not started');
    return this.libraryFeature;
  }

  get database(): Db {
    if (!this.db) throw new Error('app not started');
    return this.db;
  }

  async start(): Promise<void> {
    this.events.emit('app:status', { state: 'starting', at: Date.now() });
    await ensurePrivateDir(this.options.dataDir);
    this.db = openDatabase(join(this.options.dataDir, 'reelsync.db'));
    const library = this.options.library
      ? this.browse.adopt(this.options.library)
      : this.options.connect
        ? await this.browse.connect()
        : undefined;
    if (library) await this.startSync(this.db, library);
    this.libraryFeature = new LibraryFeature({
      db: this.db,
      dataDir: this.options.dataDir,
      events: this.events,
      logger: this.log,
      service: library,
      chooser: () => this.chooser,
    });
    await this.libraryFeature.start();
    this.stopRemoteDelete = this.browse.startRemoteDelete();
    this.events.emit('app:status', { state: 'ready', at: Date.now() });
    this.log.info({ dataDir: this.options.dataDir, mode: this.options.mode }, 'started');
  }

  async stop(): Promise<void> {
    this.events.emit('app:status', { state: 'stopping', at: Date.now() });
    this.stopRemoteDelete?.();
    const sync = this.sync;
    this.sync = undefined;
    if (sync) {
      await sync.engine.stop();
      await sync.metadata.stop();
      await sync.client.close();
    }
    await this.libraryFeature?.stop();
    this.libraryFeature = undefined;
    await this.browse.disconnect();
    this.db?.close();
    this.db = undefined;
  }

  private async startSync(db: Db, library: { baseUrl: string; key: string }): Promise<void> {
    const logger = this.log;
    const client = new LibraryClient({ baseUrl: library.baseUrl, key: library.key, logger });
    const metadata = new MetadataReader(logger);
    await metadata.start();
    const engine = new SyncEngine({
      db,
      client,
      metadata,
      events: this.events,
      logger,
      config: { uploadConcurrency: this.browse.settings().uploadConcurrency() },
    });
    await engine.start();
    this.sync = { engine, client, metadata };
    // The first scan of big trees takes a while: it runs behind the UI, recording rows as it goes.
    void engine
      .watch()
      .then(() => engine.scan())
      .catch((err: unknown) => this.log.error({ err: describeError(err) }, 'initial scan failed'));
  }

  private engine(): SyncEngine {
    if (!this.sync) throw new AppError('offline', 'no library service is configured');
    return this.sync.engine;
  }

  private registerHandlers(): void {
    this.registry.handle('app:info', () => ({
      name: 'Reelsync' as const,
      version: APP_VERSION,
      mode: this.options.mode,
      platform: process.platform,
      dataDir: this.options.dataDir,
      startedAt: this.startedAt,
    }));
    this.registry.handle('app:echo', ({ text }) => ({ text, receivedAt: Date.now() }));
    this.registerSyncHandlers();
    this.browse.register(this.registry);
    registerServiceHandlers(this.registry, {
      state: () => this.browse.serviceState(),
      restart: () => this.browse.restartService(),
    });
    registerLibraryHandlers(this.registry, () => this.library);
    registerSemanticHandlers(this.registry, () => this.sync?.client);
    registerDesktopHandlers(this.registry, {
      watcher: () => {
        const engine = this.engine();
        return {
          folders: () => engine.folders(),
          addFolder: async (input) =>
            engine.addFolder({ ...input, path: await refuseSystemFolder(input.path, this.options.dataDir) }),
          scanSoon: (ids) => this.scanSoon(engine, ids),
        };
      },
      clips: () => this.library.clips,
      filePath: (id) => new SyncStore(this.database).file(id)?.path,
      hooks: () => this.desktop,
      osReveal: this.options.mode === 'web' ? osReveal() : undefined,
    });
  }

  private scanSoon(engine: SyncEngine, ids: number[]): void {
    void engine
      .watch()
      .then(() => engine.scan(ids))
      .catch((err: unknown) =>
        this.log.error({ err: describeError(err), watchIds: ids }, 'scan of added paths failed'),
      );
  }

  private registerSyncHandlers(): void {
    const r = this.registry;
    r.handle('sync:status', () => this.engine().status());
    r.handle('sync:files', ({ page, size, ...query }) => ({ ...this.engine().files(page, size, query), page, size }));
    r.handle('sync:codecs', () => ({ codecs: this.engine().codecs() }));
    r.handle('sync:cameras', () => ({ cameras: this.engine().cameras() }));
    r.handle('uploads:history', ({ page, size }) => ({
      ...new UploadHistoryStore(this.database).page(page, size),
      page,
      size,
    }));
    r.handle('sync:pause', ({ fileId }) => ({ paused: this.engine().pause(fileId) }));
    r.handle('sync:resume', ({ fileId }) => ({ resumed: this.engine().resume(fileId) }));
    r.handle('sync:retry', ({ fileId }) => ({ requeued: this.engine().retry(fileId) }));
    r.handle('sync:remove', ({ fileId }) =>
      removeFromLibrary({ db: this.database, client: this.sync?.client, logger: this.log }, fileId),
    );
    r.handle('sync:cancel', ({ fileId }) => ({ cancelled: this.engine().cancel(fileId) }));
    r.handle('folders:add', async (req) => {
      const engine = this.engine();
      const folder = await engine.addFolder({ ...req, path: await refuseSystemFolder(req.path, this.options.dataDir) });
      void engine
        .watch()
        .then(() => engine.scan([folder.id]))
        .catch((err: unknown) =>
          this.log.error({ err: describeError(err), watchId: folder.id }, 'scan of a new folder failed'),
        );
      return folder;
    });
    r.handle('folders:remove', async ({ id }) => ({ removed: await this.engine().removeFolder(id) }));
    r.handle('folders:choose', async () => {
      if (!this.chooser)
        throw new AppError('bad_request', 'a browser has no folder picker: type or paste the folder’s full path');
      return { path: await this.chooser.chooseFolder({ title: 'Watch a folder', defaultPath: homedir() }) };
    });
    r.handle('folders:list', () => ({ folders: this.engine().folders() }));
  }
}
