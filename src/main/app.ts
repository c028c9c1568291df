import { join } from 'node:path';
import { ensurePrivateDir } from '../common/private-files';
import { AppError, describeError } from '../shared/errors';
import { aboutHandlers, type AppMode } from './about/handlers';
import { LibraryClient } from './api/client';
import { ServiceConnection } from './connection/library-connection';
import { desktopAccess, type DesktopHooks } from './desktop/hooks';
import { osReveal } from './desktop/os-reveal';
import { EventBus } from './events';
import { folderHandlers } from './folders/handlers';
import { HandlerRegistry } from './ipc/registry';
import type { DestinationChooser } from './library/destinations/policy';
import { LibraryFeature } from './library/feature';
import { libraryHandlers } from './library/handlers';
import { createLogger, type Logger } from './log';
import { MetadataReader } from './media/exif';
import { mediaSource, type MediaSource } from './media/media-source';
import { searchHandlers } from './search/handlers';
import { serviceHandlers } from './service/handlers';
import type { EmbeddedLaunch } from './service/embedded';
import { AppSettings } from './settings/app-settings';
import { settingsHandlers } from './settings/handlers';
import type { KeyVault } from './settings/key-vault';
import { nodeKeyVault } from './settings/os-keychain';
import { openDatabase, type Db } from './store/database';
import { SyncEngine } from './sync/engine';
import { syncHandlers } from './sync/handlers';
import { RemoteDeleter } from './sync/remote-delete';
import { semanticHandlers } from './semantic/handlers';

export type { AppMode } from './about/handlers';

export interface AppOptions {
  dataDir: string;
  mode: AppMode;
  logger?: Logger;
  /** The library service the sync engine talks to; without it the sync channels answer `offline`. */
  library?: { baseUrl: string; key: string };
  /** Without `library`: connect as the saved settings say (the embedded service by default, or the cloud endpoint). */
  connect?: boolean;
  /** Seals stored API keys (safeStorage in Electron); by default the OS keychain where its tool answers, as the CLI does. */
  vault?: KeyVault;
  /** How the embedded service is started: the Electron shell passes its utilityProcess forker; Node forks otherwise. */
  embedded?: EmbeddedLaunch;
}

/** Composition root: builds the features and registers each one's handlers. No electron import. */
export class ReelsyncApp {
  readonly registry: HandlerRegistry;
  readonly events = new EventBus();
  readonly log: Logger;
  /** The library service this app uses (embedded, cloud, or given). */
  readonly connection: ServiceConnection;
  /** What the media routes serve (local files inside the allowed folders, keyframes). */
  readonly media: MediaSource;
  private db: Db | undefined;
  private sync: { engine: SyncEngine; client: LibraryClient; metadata: MetadataReader } | undefined;
  private readonly startedAt = Date.now();
  private libraryFeature: LibraryFeature | undefined;
  private remoteDelete: { deleter: RemoteDeleter; stop: () => void } | undefined;
  private vault: KeyVault | undefined;
  /** Installed by the Electron shell: drag-out and reveal of clip files. */
  desktop: DesktopHooks | undefined;
  /** Installed by the Electron shell: native save/open dialogs that grant destinations. */
  chooser: DestinationChooser | undefined;

  constructor(private readonly options: AppOptions) {
    this.log = (options.logger ?? createLogger()).child({ module: 'app' });
    this.registry = new HandlerRegistry(this.log.child({ module: 'ipc' }));
    this.connection = new ServiceConnection({
      dataDir: options.dataDir,
      events: this.events,
      logger: this.log,
      launch: options.embedded,
    });
    this.media = mediaSource({
      dataDir: options.dataDir,
      watchedPaths: () => this.sync?.engine.folders().map((f) => f.path) ?? [],
      destinations: () => this.libraryFeature?.destinations,
      savedFile: (path) => this.libraryFeature?.savedFile(path) ?? false,
      thumbnails: () => this.libraryFeature?.thumbnails,
    });
    this.registerHandlers();
  }

  /** Clips, downloads, thumbnail cache: there from start() on, with or without a library service. */
  get library(): LibraryFeature {
    if (!this.libraryFeature) throw new AppError('offline', 'app not started');
    return this.libraryFeature;
  }

  get database(): Db {
    if (!this.db) throw new Error('app not started');
    return this.db;
  }

  settings(): AppSettings {
    this.vault ??= this.options.vault ?? nodeKeyVault();
    return new AppSettings(this.database, this.vault);
  }

  async start(): Promise<void> {
    this.events.emit('app:status', { state: 'starting', at: Date.now() });
    await ensurePrivateDir(this.options.dataDir);
    this.db = openDatabase(join(this.options.dataDir, 'reelsync.db'));
    const given = this.options.library;
    const library = given
      ? await this.connection.connect(this.settings(), { kind: 'given', ...given })
      : this.options.connect
        ? await this.connection.connect(this.settings(), { kind: 'settings' })
        : undefined;
    await this.startLibraryParts(this.db, library);
    this.startRemoteDelete(this.db);
    this.events.emit('app:status', { state: 'ready', at: Date.now() });
    this.log.info({ dataDir: this.options.dataDir, mode: this.options.mode }, 'started');
  }

  async stop(): Promise<void> {
    this.events.emit('app:status', { state: 'stopping', at: Date.now() });
    this.remoteDelete?.stop();
    this.remoteDelete = undefined;
    await this.stopLibraryParts();
    this.db?.close();
    this.db = undefined;
  }

  /**
   * Settings ▸ Library in use, applied at once: what talks to the library (sync engine, clips and downloads, the
   * embedded service) stops and starts again on the library the settings now name. Rows keep the work meanwhile.
   */
  async switchLibrary(): Promise<void> {
    const db = this.database;
    await this.stopLibraryParts();
    const library = await this.connection.connect(this.settings(), { kind: 'settings' });
    await this.startLibraryParts(db, library);
    void this.remoteDelete?.deleter.reconcile();
    this.log.info({ connected: library !== undefined }, 'switched the library in use');
  }

  private async startLibraryParts(db: Db, library: { baseUrl: string; key: string } | undefined): Promise<void> {
    if (library) await this.startSync(db, library);
    this.libraryFeature = new LibraryFeature({
      db,
      dataDir: this.options.dataDir,
      events: this.events,
      logger: this.log,
      service: library,
      chooser: () => this.chooser,
    });
    await this.libraryFeature.start();
  }

  private async stopLibraryParts(): Promise<void> {
    const sync = this.sync;
    this.sync = undefined;
    if (sync) {
      await sync.engine.stop();
      await sync.metadata.stop();
      await sync.client.close();
    }
    await this.libraryFeature?.stop();
    this.libraryFeature = undefined;
    await this.connection.disconnect();
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
      config: { uploadConcurrency: this.settings().uploadConcurrency() },
    });
    await engine.start();
    this.sync = { engine, client, metadata };
    // The first scan of big trees takes a while: it runs behind the UI, recording rows as it goes.
    void engine
      .watch()
      .then(() => engine.scan())
      .catch((err: unknown) => this.log.error({ err: describeError(err) }, 'initial scan failed'));
  }

  /** Deletes library copies of deleted local files when the policy says so. */
  private startRemoteDelete(db: Db): void {
    const deleter = new RemoteDeleter({ db, client: () => this.sync?.client, logger: this.log });
    void deleter.reconcile();
    this.remoteDelete = { deleter, stop: deleter.watch(this.events) };
  }

  private engine(): SyncEngine {
    if (!this.sync) throw new AppError('offline', 'no library service is configured');
    return this.sync.engine;
  }

  private client(): LibraryClient {
    if (!this.sync) throw new AppError('offline', this.connection.offlineReason());
    return this.sync.client;
  }

  private registerHandlers(): void {
    const { dataDir, mode } = this.options;
    const db = (): Db => this.database;
    const desktop = desktopAccess(() => this.desktop, mode === 'web' ? osReveal() : undefined);
    const features = [
      aboutHandlers({ mode, dataDir, startedAt: this.startedAt }),
      syncHandlers({
        engine: () => this.engine(),
        client: () => this.sync?.client,
        db,
        dataDir,
        logger: this.log,
        chooser: () => this.chooser,
        desktop,
      }),
      searchHandlers({ client: () => this.client(), db }),
      settingsHandlers({
        settings: () => this.settings(),
        db,
        connection: this.connection,
        events: this.events,
        remoteDeleteChanged: () => void this.remoteDelete?.deleter.reconcile(),
        switchLibrary: () => this.switchLibrary(),
        logger: this.log,
      }),
      serviceHandlers({ state: () => this.connection.state(), restart: () => this.connection.restart() }),
      libraryHandlers(() => this.library, desktop),
      semanticHandlers(() => this.client()),
      folderHandlers(),
    ];
    for (const handlers of features) this.registry.register(handlers);
  }
}
