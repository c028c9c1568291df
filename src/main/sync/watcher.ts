import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { describeError } from '../../shared/errors';
import type { Logger } from '../log';
import type { WatchFolderRow } from '../store/sync-rows';
import { makeIgnore } from './ignore';

/** statfs magic numbers of network and FUSE file systems, where change events do not arrive reliably. */
const NETWORK_FS = new Set([
  0x6969 /* nfs */, 0x517b /* smb */, 0xff534d42 /* cifs */, 0xfe534d42 /* smb2 */, 0x65735546 /* fuse */,
  0x01021997 /* 9p/v9fs */,
]);

export async function needsPolling(path: string): Promise<boolean> {
  try {
    const info = await statfs(path);
    return NETWORK_FS.has(Number(info.type));
  } catch {
    return false;
  }
}

export interface WatchCallbacks {
  onFile(watch: WatchFolderRow, path: string, size: number, mtimeMs: number): void;
  onGone(watch: WatchFolderRow, path: string): void;
}

/** One chokidar watcher per watch folder. It only reports; the recorder writes rows. Initial contents come from the scanner. */
export class FolderWatcher {
  private watcher: FSWatcher | undefined;
  private readonly log: Logger;

  constructor(
    private readonly folder: WatchFolderRow,
    private readonly callbacks: WatchCallbacks,
    logger: Logger,
    private readonly pollIntervalMs = 2000,
  ) {
    this.log = logger.child({ module: 'watcher', watchId: folder.id });
  }

  async start(): Promise<void> {
    const polling =
      this.folder.polling === 'on' || (this.folder.polling === 'auto' && (await needsPolling(this.folder.path)));
    const ignore = makeIgnore(this.folder.path, this.folder.ignore);
    const w = watch(this.folder.path, {
      ignoreInitial: true,
      ignored: (path: string) => ignore(path),
      followSymlinks: true,
      depth: 64,
      usePolling: polling,
      interval: this.pollIntervalMs,
      binaryInterval: this.pollIntervalMs,
      ignorePermissionErrors: true,
      alwaysStat: true,
      awaitWriteFinish: false,
    });
    const onFile = (path: string, stats?: Stats): void => {
      if (stats?.isFile()) this.callbacks.onFile(this.folder, path, stats.size, stats.mtimeMs);
    };
    w.on('add', onFile);
    w.on('change', onFile);
    w.on('unlink', (path: string) => this.callbacks.onGone(this.folder, path));
    w.on('error', (err: unknown) => this.log.warn({ err: describeError(err) }, 'watch error'));
    this.watcher = w;
    await new Promise<void>((resolve) => w.once('ready', () => resolve()));
    this.log.info({ path: this.folder.path, polling }, 'watching');
  }

  async stop(): Promise<void> {
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
