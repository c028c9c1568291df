import { join } from 'node:path';
import type { SearchHit } from '../../shared/contract/library';
import type { ServiceState } from '../../shared/contract/service';
import type { SettingsView } from '../../shared/contract/settings';
import { AppError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import type { EventBus } from '../events';
import type { HandlerRegistry } from '../ipc/registry';
import type { Logger } from '../log';
import type { EmbeddedLaunch } from '../service/embedded';
import { serviceProblem } from '../service/handlers';
import type { Db } from '../store/database';
import { AppSettings } from '../settings/app-settings';
import { connectLibrary, type ConnectOutcome, type LibraryConnection } from './connect';
import type { KeyVault } from '../settings/key-vault';
import { libraryCall } from '../api/app-errors';
import type { ThumbnailCache } from '../library/thumb-cache';
import { isKeyframeAddress, KeyframeCache, type Keyframe } from '../media/keyframes';
import { LocalOriginals } from '../sync/local-originals';
import { DeletePolicy, RemoteDeleter } from '../sync/remote-delete';
import { runSearch } from '../search/run-search';
import { videoDetail } from '../search/video-detail';

export interface BrowseDeps {
  dataDir: string;
  db: () => Db;
  /** The sync engine's client, while a library service is connected. */
  client: () => LibraryClient | undefined;
  /** Paths of the watched folders (media may be served from inside them). */
  watchedPaths: () => string[];
  vault: KeyVault;
  events: EventBus;
  logger: Logger;
  /** Keeps a successful search's hits for offline browsing (search:last-results). */
  recordSearch?: (request: { query: string; type: string }, hits: SearchHit[]) => void;
  /** The on-disk keyframe cache (works offline for what it holds); the in-memory one without it. */
  thumbnails?: () => ThumbnailCache | undefined;
  /** How the embedded service is started (the Electron shell's utilityProcess forker; test timings). */
  launch?: EmbeddedLaunch;
}

type Applied = { endpoint: string; concurrency: number };

/** Library browsing (search, video detail, media), settings and the library connection, as the UI needs them. */
export class BrowseServices {
  readonly keyframes: KeyframeCache;
  private outcome: ConnectOutcome | undefined;
  private applied: Applied | undefined;
  private deleter: RemoteDeleter | undefined;

  constructor(private readonly deps: BrowseDeps) {
    this.keyframes = new KeyframeCache(() => {
      const c = this.connection();
      return c ? { baseUrl: c.baseUrl, key: c.key } : null;
    });
  }

  settings(): AppSettings {
    return new AppSettings(this.deps.db(), this.deps.vault);
  }

  /** Connects as the settings say; undefined when no service can be used (the UI shows why). */
  async connect(): Promise<{ baseUrl: string; key: string } | undefined> {
    const settings = this.settings();
    this.applied = { endpoint: JSON.stringify(settings.endpoint()), concurrency: settings.uploadConcurrency() };
    this.outcome = await connectLibrary(settings, this.deps.dataDir, this.deps.logger, this.deps.launch);
    const supervisor = this.outcome.state === 'connected' ? this.outcome.connection.supervisor : undefined;
    supervisor?.onState((state) => this.deps.events.emit('service:state', state));
    return this.outcome.state === 'connected'
      ? { baseUrl: this.outcome.connection.baseUrl, key: this.outcome.connection.key }
      : undefined;
  }

  /** A service given by the caller (tests, --server): used as is, stopped by its owner. */
  adopt(library: { baseUrl: string; key: string }): { baseUrl: string; key: string } {
    this.outcome = { state: 'connected', connection: { mode: 'cloud', ...library, stop: () => Promise.resolve() } };
    return library;
  }

  /** Deletes library copies of deleted local files when the policy says so; the caller stops it with the returned function. */
  startRemoteDelete(): () => void {
    this.deleter = new RemoteDeleter({
      db: this.deps.db(),
      client: () => this.deps.client(),
      logger: this.deps.logger,
    });
    void this.deleter.reconcile();
    return this.deleter.watch(this.deps.events);
  }

  get remoteDelete(): RemoteDeleter | undefined {
    return this.deleter;
  }

  /** A keyframe for the media routes: only keyframe addresses, from the disk cache (fetched once online) when there is one. */
  async keyframe(bucket: string, blob: string): Promise<Keyframe> {
    if (!isKeyframeAddress(bucket, blob)) return { ok: false, status: 400, message: 'not a keyframe address' };
    const disk = this.deps.thumbnails?.();
    if (!disk) return this.keyframes.get(bucket, blob);
    const t = await disk.get(bucket, blob);
    return t.ok
      ? { ok: true, bytes: t.bytes, contentType: t.contentType }
      : { ok: false, status: t.status, message: t.message };
  }

  /** The embedded service's state: `none` without one, crashed when its first start failed. */
  serviceState(): ServiceState {
    const o = this.outcome;
    if (o?.state === 'connected') return o.connection.supervisor?.state() ?? { state: 'none' };
    if (o?.state === 'failed' && o.mode === 'embedded')
      return {
        state: 'crashed',
        reason: o.reason,
        at: Date.now(),
        logFile: join(this.deps.dataDir, 'logs', 'service.log'),
      };
    return { state: 'none' };
  }

  async restartService(): Promise<ServiceState> {
    const supervisor = this.outcome?.state === 'connected' ? this.outcome.connection.supervisor : undefined;
    if (!supervisor)
      throw new AppError('offline', 'no embedded library service runs in this app (restart the app to try again)');
    return supervisor.restartNow();
  }

  async disconnect(): Promise<void> {
    const c = this.connection();
    this.outcome = undefined;
    await c?.stop();
  }

  /** Folders media may be served from: the watched folders and the library's own folders in the data dir. */
  mediaRoots(): string[] {
    return [...this.deps.watchedPaths(), join(this.deps.dataDir, 'clips'), join(this.deps.dataDir, 'downloads')];
  }

  view(): SettingsView {
    const s = this.settings();
    const endpoint = s.endpoint();
    const concurrency = s.uploadConcurrency();
    let cloudKeySet = false;
    try {
      cloudKeySet = s.cloudKey() !== undefined;
    } catch {
      cloudKeySet = true;
    }
    const o = this.outcome;
    const down = serviceProblem(this.serviceState());
    const connection: SettingsView['connection'] =
      o === undefined
        ? { state: 'not-configured', mode: null, baseUrl: null, error: null }
        : o.state === 'connected'
          ? down
            ? { state: 'failed', mode: o.connection.mode, baseUrl: o.connection.baseUrl, error: down }
            : { state: 'connected', mode: o.connection.mode, baseUrl: o.connection.baseUrl, error: null }
          : { state: o.state, mode: o.mode, baseUrl: null, error: o.reason };
    const restartRequired =
      this.applied !== undefined &&
      (this.applied.endpoint !== JSON.stringify(endpoint) || this.applied.concurrency !== concurrency);
    const remoteDeletePolicy = new DeletePolicy(this.deps.db()).get();
    return {
      endpoint,
      cloudKeySet,
      uploadConcurrency: concurrency,
      launchAtLogin: s.launchAtLogin(),
      windowClose: s.windowClose(),
      remoteDeletePolicy,
      theme: s.theme(),
      connection,
      restartRequired,
    };
  }

  register(r: HandlerRegistry): void {
    r.handle('search:run', async (req) => {
      const answer = await libraryCall(() => runSearch(this.client(), new LocalOriginals(this.deps.db()), req));
      this.deps.recordSearch?.(req, answer.hits);
      return answer;
    });
    r.handle('library:video', async ({ videoNo }) =>
      libraryCall(() => videoDetail(this.client(), new LocalOriginals(this.deps.db()), videoNo)),
    );
    r.handle('library:folders', async () => ({
      folders: (await libraryCall(() => this.client().listFolders())).map((f) => ({
        folderId: f.folder_id,
        name: f.name,
        videoCount: f.video_count,
      })),
    }));
    r.handle('settings:get', () => this.view());
    r.handle('settings:set', (req) => {
      const s = this.settings();
      if (req.endpoint) s.setEndpoint(req.endpoint);
      if (req.cloudKey !== undefined) s.setCloudKey(req.cloudKey.trim());
      if (req.uploadConcurrency !== undefined) s.setUploadConcurrency(req.uploadConcurrency);
      if (req.launchAtLogin !== undefined) s.setLaunchAtLogin(req.launchAtLogin);
      if (req.windowClose !== undefined) s.setWindowClose(req.windowClose);
      if (req.theme !== undefined) s.setTheme(req.theme);
      if (req.remoteDeletePolicy !== undefined) {
        new DeletePolicy(this.deps.db()).set(req.remoteDeletePolicy);
        void this.deleter?.reconcile();
      }
      const view = this.view();
      this.deps.events.emit('settings:changed', view);
      return view;
    });
  }

  private connection(): LibraryConnection | undefined {
    return this.outcome?.state === 'connected' ? this.outcome.connection : undefined;
  }

  private client(): LibraryClient {
    const c = this.deps.client();
    if (!c)
      throw new AppError(
        'offline',
        this.outcome && this.outcome.state !== 'connected' ? this.outcome.reason : 'no library service is connected',
      );
    return c;
  }
}
