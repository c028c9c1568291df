import { z } from 'zod';
import {
  DEFAULT_THEME,
  DEFAULT_WINDOW_CLOSE,
  endpointSchema,
  THEMES,
  WINDOW_CLOSE_ACTIONS,
  type Endpoint,
  type Theme,
  type WindowCloseAction,
} from '../../shared/contract/settings';
import { PAUSE_REASONS, type PauseReason } from '../../shared/contract/sync';
import { REMOTE_DELETE_POLICIES, type RemoteDeletePolicy } from '../../shared/contract/settings';
import { normalizeLibraryBaseUrl, parseLibraryBaseUrl } from '../../shared/library-url';
import type { PauseState, QueuePause } from '../jobs/client-job-queue';
import type { Db } from '../store/database';
import { SettingsStore } from '../store/settings-store';
import { ProxySettings, type ProxySettingsValues } from '../proxy/proxy-settings';
import type { KeyVault } from './key-vault';

const KEYS = {
  endpoint: 'ui.endpoint',
  cloudKey: 'ui.cloud.key',
  embeddedKey: 'embedded.service.key.sealed',
  /** Where the command line keeps the embedded key (same client database): read once and re-sealed. */
  legacyEmbeddedKey: 'embedded.service.key',
  concurrency: 'ui.upload.concurrency',
  launchAtLogin: 'ui.launch-at-login',
  windowClose: 'ui.window-close',
  theme: 'ui.theme',
  /** The "still syncing in the tray" notification was shown once. */
  trayHintShown: 'ui.tray-hint-shown',
  windowState: 'ui.window-state',
  /** Each job queue over the `jobs` table pauses independently. */
  queuePause: { sync: 'sync.queue.paused', library: 'library.queue.paused' },
  scanCounter: 'sync.scan.counter',
  deletePolicy: 'library.remote-delete.policy',
  /** Files deleted at or after this time (ms) are still to be handled; moves forward as deletions succeed. */
  deleteSince: 'library.remote-delete.since',
  destinationRoots: 'destinations.roots',
  clipsDir: 'destinations.clips-dir',
} as const;

export type QueueName = keyof typeof KEYS.queuePause;
const queuePauseSchema = z.object({ reason: z.enum(PAUSE_REASONS), at: z.number() });

const coordinate = z.number().int().min(-100_000).max(100_000);
export const windowStateSchema = z
  .object({
    x: coordinate,
    y: coordinate,
    width: z.number().int().min(1).max(100_000),
    height: z.number().int().min(1).max(100_000),
    maximized: z.boolean(),
  })
  .strict();
export type WindowState = z.infer<typeof windowStateSchema>;

const destinationRootsSchema = z.array(z.string().min(1).max(4096)).max(50);

/** A stored JSON value read with its schema; a missing, damaged or hand-edited value reads as undefined. */
function parsedJson<T>(raw: string | undefined, schema: z.ZodType<T>): T | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const DEFAULT_UPLOAD_CONCURRENCY = 2;

const windowCloseSchema = z.enum(WINDOW_CLOSE_ACTIONS);
const themeSchema = z.enum(THEMES);

/**
 * Typed, validated app settings and client state over the client database's key/value table; every key is here.
 * API keys go through the vault: the modules that keep no API key may open the settings without one.
 */
export class AppSettings {
  private readonly store: SettingsStore;
  private readonly proxySettings: ProxySettings;

  constructor(
    db: Db,
    private readonly keyVault?: KeyVault,
  ) {
    this.store = new SettingsStore(db);
    this.proxySettings = new ProxySettings(db);
  }

  /** Search proxies: width, cache cap, keep for offline playback (keys `proxy.*`, read by the proxy jobs). */
  proxy(): ProxySettingsValues {
    return this.proxySettings.get();
  }

  setProxy(values: Partial<ProxySettingsValues>): void {
    this.proxySettings.set(values);
  }

  private get vault(): KeyVault {
    if (!this.keyVault) throw new Error('these settings were opened without a key vault: API keys cannot be read');
    return this.keyVault;
  }

  endpoint(): Endpoint {
    const raw = this.store.get(KEYS.endpoint);
    if (!raw) return { mode: 'embedded' };
    const parsed = endpointSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return { mode: 'embedded' };
    // Stored before addresses were normalised: the origin alone reads as its base URL.
    const url = parsed.data.mode === 'cloud' ? parseLibraryBaseUrl(parsed.data.url) : null;
    return url?.ok ? { mode: 'cloud', url: url.url } : parsed.data;
  }

  /** A cloud address may be the origin or the base URL (…/serve/api/v1); it is stored as the base URL. */
  setEndpoint(endpoint: Endpoint): void {
    const checked = endpointSchema.parse(endpoint);
    const stored = checked.mode === 'cloud' ? { mode: 'cloud', url: normalizeLibraryBaseUrl(checked.url) } : checked;
    this.store.set(KEYS.endpoint, JSON.stringify(stored));
  }

  cloudKey(): string | undefined {
    return this.openSealed(KEYS.cloudKey);
  }

  setCloudKey(key: string): void {
    if (key === '') this.store.delete(KEYS.cloudKey);
    else this.store.set(KEYS.cloudKey, this.vault.seal(key));
  }

  embeddedKey(): string | undefined {
    const opened = this.openSealed(KEYS.embeddedKey);
    if (opened !== undefined) return opened;
    const legacy = this.store.get(KEYS.legacyEmbeddedKey);
    if (legacy === undefined) return undefined;
    this.setEmbeddedKey(legacy);
    return legacy;
  }

  setEmbeddedKey(key: string): void {
    this.store.set(KEYS.embeddedKey, this.vault.seal(key));
  }

  /** A stored key, opened; one kept in the database before a keychain was there moves into the keychain. */
  private openSealed(key: string): string | undefined {
    const sealed = this.store.get(key);
    if (sealed === undefined) return undefined;
    const plain = this.vault.open(sealed);
    if (sealed.startsWith('plain:') && this.vault.kind === 'os-keychain') {
      try {
        this.store.set(key, this.vault.seal(plain));
      } catch {
        // The keychain is not available now: the key stays where it was and moves on a later read.
      }
    }
    return plain;
  }

  uploadConcurrency(): number {
    const parsed = z.coerce.number().int().min(1).max(8).safeParse(this.store.get(KEYS.concurrency));
    return parsed.success ? parsed.data : DEFAULT_UPLOAD_CONCURRENCY;
  }

  setUploadConcurrency(n: number): void {
    this.store.set(KEYS.concurrency, String(z.number().int().min(1).max(8).parse(n)));
  }

  launchAtLogin(): boolean {
    return this.store.get(KEYS.launchAtLogin) === 'true';
  }

  setLaunchAtLogin(on: boolean): void {
    this.store.set(KEYS.launchAtLogin, on ? 'true' : 'false');
  }

  /** What closing the window does; a missing or unknown stored value reads as the default (keep syncing in the tray). */
  windowClose(): WindowCloseAction {
    const parsed = windowCloseSchema.safeParse(this.store.get(KEYS.windowClose));
    return parsed.success ? parsed.data : DEFAULT_WINDOW_CLOSE;
  }

  setWindowClose(action: WindowCloseAction): void {
    this.store.set(KEYS.windowClose, windowCloseSchema.parse(action));
  }

  /** Light, dark or the system's; a missing or unknown stored value reads as the system's. */
  theme(): Theme {
    const parsed = themeSchema.safeParse(this.store.get(KEYS.theme));
    return parsed.success ? parsed.data : DEFAULT_THEME;
  }

  setTheme(theme: Theme): void {
    this.store.set(KEYS.theme, themeSchema.parse(theme));
  }

  trayHintShown(): boolean {
    return this.store.get(KEYS.trayHintShown) === 'true';
  }

  setTrayHintShown(): void {
    this.store.set(KEYS.trayHintShown, 'true');
  }

  /** The saved window state; a missing, damaged or hand-edited value reads as none. */
  windowState(): WindowState | null {
    return parsedJson(this.store.get(KEYS.windowState), windowStateSchema) ?? null;
  }

  setWindowState(state: WindowState): void {
    this.store.set(KEYS.windowState, JSON.stringify(windowStateSchema.parse(state)));
  }

  queuePause(queue: QueueName): QueuePause | null {
    return parsedJson(this.store.get(KEYS.queuePause[queue]), queuePauseSchema) ?? null;
  }

  /** One queue's pause state, as the job queue (src/main/jobs, which imports no feature) takes it. */
  pauseState(queue: QueueName): PauseState {
    return { get: () => this.queuePause(queue), set: (reason) => this.setQueuePause(queue, reason) };
  }

  /** Persists a queue's pause state; a running queue notices on its next tick. */
  setQueuePause(queue: QueueName, reason: PauseReason | null): void {
    if (reason === null) this.store.delete(KEYS.queuePause[queue]);
    else this.store.set(KEYS.queuePause[queue], JSON.stringify({ reason, at: Date.now() }));
  }

  /** Counts a new scan and returns its number (files not seen by it were deleted). */
  nextScanNumber(): number {
    const scan = Number(this.store.get(KEYS.scanCounter) ?? '0') + 1;
    this.store.set(KEYS.scanCounter, String(scan));
    return scan;
  }

  deletePolicy(): RemoteDeletePolicy {
    const parsed = z.enum(REMOTE_DELETE_POLICIES).safeParse(this.store.get(KEYS.deletePolicy));
    return parsed.success ? parsed.data : 'keep';
  }

  setDeletePolicy(policy: RemoteDeletePolicy): void {
    this.store.set(KEYS.deletePolicy, z.enum(REMOTE_DELETE_POLICIES).parse(policy));
  }

  deleteSince(): number {
    return Number(this.store.get(KEYS.deleteSince) ?? Number.MAX_SAFE_INTEGER);
  }

  setDeleteSince(ms: number): void {
    this.store.set(KEYS.deleteSince, String(ms));
  }

  /** The write destinations configured in Settings, as stored (checked when they were set). */
  destinationRoots(): string[] {
    return parsedJson(this.store.get(KEYS.destinationRoots), destinationRootsSchema) ?? [];
  }

  setDestinationRoots(paths: string[]): void {
    this.store.set(KEYS.destinationRoots, JSON.stringify([...new Set(paths)]));
  }

  clipsDir(): string | undefined {
    return this.store.get(KEYS.clipsDir);
  }

  setClipsDir(path: string | null): void {
    if (path === null) this.store.delete(KEYS.clipsDir);
    else this.store.set(KEYS.clipsDir, path);
  }
}
