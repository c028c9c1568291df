import type { SyncStatus } from '../../shared/contract/sync';
import type { EventBus } from '../events';

export interface Note {
  title: string;
  body: string;
}

const BUSY = ['waiting', 'queued', 'uploading', 'indexing'] as const;
const busyOf = (s: SyncStatus): number => BUSY.reduce((n, k) => n + (s.byStatus[k] ?? 0), 0);
const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p;

/**
 * OS notifications for what needs no window open: a batch that finished syncing, and problems the user must act on
 * (balance, a refused key, rejected files, a failed download). Coalesced: a burst of rejections is one notification.
 */
export class SyncNotifier {
  private offs: (() => void)[] = [];
  private rejected: { path: string; reason: string }[] = [];
  private rejectTimer: NodeJS.Timeout | undefined;
  private statusTimer: NodeJS.Timeout | undefined;
  /** Files that became searchable since the queue was last seen idle. */
  private readonly searchable = new Set<number>();

  constructor(
    private readonly o: {
      events: EventBus;
      status: () => Promise<SyncStatus | null>;
      notify: (n: Note) => void;
      coalesceMs?: number;
    },
  ) {}

  start(): void {
    const e = this.o.events;
    this.offs = [
      e.on('sync:file-changed', (f) => {
        if (f.status === 'skipped') this.reject(f.path, f.reason ?? 'refused');
        if (f.status === 'indexed') this.searchable.add(f.id);
        if (this.searchable.size > 0) this.checkSoon();
      }),
      e.on('sync:queue', ({ paused }) => {
        if (paused?.reason === 'insufficient-balance')
          this.o.notify({
            title: 'Uploads paused: balance too low',
            body: 'The library service refused an upload for lack of credits. Add credits, then resume the queue.',
          });
        if (paused?.reason === 'unauthorized')
          this.o.notify({
            title: 'Uploads paused: API key refused',
            body: 'Check the key in Settings, then resume the queue.',
          });
      }),
      e.on('downloads:progress', (d) => {
        if (d.state === 'gone')
          this.o.notify({
            title: 'Download gone',
            body: `Download ${d.id}: the library no longer has this resource; it will not be retried.`,
          });
        if (d.state === 'failed')
          this.o.notify({
            title: 'Download failed',
            body: `Download ${d.id} stopped after its retries. Retry it from Clips → Downloads.`,
          });
      }),
    ];
  }

  stop(): void {
    this.offs.forEach((off) => off());
    clearTimeout(this.rejectTimer);
    clearTimeout(this.statusTimer);
    this.flushRejected();
  }

  private reject(path: string, reason: string): void {
    this.rejected.push({ path, reason });
    this.rejectTimer ??= setTimeout(() => this.flushRejected(), this.o.coalesceMs ?? 2000);
  }

  private flushRejected(): void {
    this.rejectTimer = undefined;
    const list = this.rejected;
    this.rejected = [];
    if (list.length === 0) return;
    const first = list[0];
    const title = list.length === 1 ? 'A file was rejected' : `${list.length} files were rejected`;
    const body = first
      ? `${baseName(first.path)}: ${first.reason}${list.length > 1 ? ` (and ${list.length - 1} more: see Library → Rejected)` : ''}`
      : '';
    this.o.notify({ title, body });
  }

  /** A batch ends when no file is busy any more: then it says how many became searchable. */
  private checkSoon(): void {
    this.statusTimer ??= setTimeout(() => {
      this.statusTimer = undefined;
      void this.check();
    }, this.o.coalesceMs ?? 2000);
  }

  async check(): Promise<void> {
    if (this.searchable.size === 0) return;
    const s = await this.o.status().catch(() => null);
    if (!s || busyOf(s) > 0) {
      this.checkSoon();
      return;
    }
    const added = this.searchable.size;
    this.searchable.clear();
    this.o.notify({ title: 'Sync finished', body: `${added} file${added === 1 ? ' is' : 's are'} now searchable.` });
  }
}
