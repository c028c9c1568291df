import { z } from 'zod';
import { SettingsStore } from '../store/settings-store';
import type { Db } from '../store/database';
import { DEFAULT_PROXY_WIDTH, PROXY_WIDTHS, type ProxyWidth } from './proxy-args';

const KEYS = {
  width: 'proxy.width',
  cacheCapBytes: 'proxy.cache-cap-bytes',
  keep: 'proxy.keep-for-offline',
} as const;

export const DEFAULT_PROXY_CACHE_CAP = 20 * 1024 ** 3;
/** Below one proxy of a short take, a cap would only ever make proxies wait. */
export const MIN_PROXY_CACHE_CAP = 1024 ** 3;

export interface ProxySettingsValues {
  width: ProxyWidth;
  cacheCapBytes: number;
  /** Keep proxies after indexing, for offline playback (else deleted once their upload is indexed). */
  keep: boolean;
}

export const proxySettingsSchema = z.object({
  width: z.union(PROXY_WIDTHS.map((w) => z.literal(w)) as [z.ZodLiteral<960>, z.ZodLiteral<1280>, z.ZodLiteral<1920>]),
  cacheCapBytes: z
    .number()
    .int()
    .min(MIN_PROXY_CACHE_CAP)
    .max(2 ** 50),
  keep: z.boolean(),
});

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
