import { MIN_PROXY_CACHE_CAP, proxySettingsSchema, type ProxySettingsValues } from '../../shared/contract/settings';
import { SettingsStore } from '../store/settings-store';
import type { Db } from '../store/database';
import { DEFAULT_PROXY_WIDTH } from './proxy-args';

export { MIN_PROXY_CACHE_CAP, type ProxySettingsValues };

const KEYS = {
  width: 'proxy.width',
  cacheCapBytes: 'proxy.cache-cap-bytes',
  keep: 'proxy.keep-for-offline',
} as const;

export const DEFAULT_PROXY_CACHE_CAP = 20 * 1024 ** 3;

/** The proxy settings over the client database's key/value table, each read validated with its default. */
export class ProxySettings {
  private readonly store: SettingsStore;
  constructor(db: Db) {
    this.store = new SettingsStore(db);
  }

  get(): ProxySettingsValues {
    const width = proxySettingsSchema.shape.width.safeParse(Number(this.store.get(KEYS.width)));
    const cap = proxySettingsSchema.shape.cacheCapBytes.safeParse(Number(this.store.get(KEYS.cacheCapBytes)));
    return {
      width: width.success ? width.data : DEFAULT_PROXY_WIDTH,
      cacheCapBytes: cap.success ? cap.data : DEFAULT_PROXY_CACHE_CAP,
      keep: this.store.get(KEYS.keep) === 'true',
    };
  }

  set(values: Partial<ProxySettingsValues>): ProxySettingsValues {
    const checked = proxySettingsSchema.partial().parse(values);
    if (checked.width !== undefined) this.store.set(KEYS.width, String(checked.width));
    if (checked.cacheCapBytes !== undefined) this.store.set(KEYS.cacheCapBytes, String(checked.cacheCapBytes));
    if (checked.keep !== undefined) this.store.set(KEYS.keep, String(checked.keep));
    return this.get();
  }
}
