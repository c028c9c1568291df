import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log';
import { formatBytes } from '../sync/validator';
import type { ProxySettings } from './proxy-settings';
import type { ProxyStore } from './proxy-store';

/**
 * The bounded proxy cache in the data folder: one folder per original content hash holding `<stem>.mp4` (the name
 * the library shows). Proxies waiting for upload are never evicted; uploaded ones go oldest first when room is needed,
 * and as soon as their video is indexed unless "keep for offline playback" is on.
 */
export class ProxyCache {
  constructor(
    readonly dir: string,
    private readonly store: ProxyStore,
    private readonly settings: ProxySettings,
    private readonly log: Logger,
  ) {}

  folderOf(hash: string): string {
    return join(this.dir, hash);
  }

  /**
   * Makes room for a proxy of about `bytes`: evicts uploaded proxies oldest first while over the cap. Returns null
   * when it fits, else the reason to wait (the cache is held by proxies not uploaded yet). A proxy alone in the cache
   * always goes ahead, or a cap below one long take would stop it for ever.
   */
  async makeRoom(bytes: number): Promise<string | null> {
    const cap = this.settings.get().cacheCapBytes;
    for (const row of this.store.evictable()) {
      if (this.store.cachedBytes() + bytes <= cap) break;
      await this.remove(row.hash);
      this.log.info({ hash: row.hash, size: row.size }, 'proxy evicted from the cache');
    }
    const held = this.store.cachedBytes();
    if (held === 0 || held + bytes <= cap) return null;
    return `the proxy cache is full: ${formatBytes(held)} of ${formatBytes(cap)} held by proxies waiting for upload`;
  }

  /** The video of this proxy is indexed: its file goes unless kept for offline playback. */
  async indexed(hash: string): Promise<void> {
    const row = this.store.get(hash);
    if (!row || row.state !== 'uploaded' || this.settings.get().keep) return;
    await this.remove(hash);
  }

  async remove(hash: string): Promise<void> {
    await rm(this.folderOf(hash), { recursive: true, force: true });
    this.store.removed(hash);
  }
}
