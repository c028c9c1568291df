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
import { normalizeLibraryBaseUrl, parseLibraryBaseUrl } from '../../shared/library-url';
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
} as const;

export const DEFAULT_UPLOAD_CONCURRENCY = 2;

const windowCloseSchema = z.enum(WINDOW_CLOSE_ACTIONS);
const themeSchema = z.enum(THEMES);

/** Typed, validated app settings over the client database's key/value table; keys go through the vault. */
export class AppSettings {
  private readonly store: SettingsStore;
  private readonly proxySettings: ProxySettings;

  constructor(
    db: Db,
    private readonly vault: KeyVault,
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
}
