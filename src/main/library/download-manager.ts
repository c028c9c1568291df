import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DownloadProgress, DownloadView, Quote } from '../../shared/contract/downloads';
import { AppError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import type { DownloadKind, DownloadRow, DownloadState, DownloadStore } from './download-store';
import type { JobsStore } from '../jobs/jobs-store';
import { partPathOf } from './download-job';
import { quoteOf, videoNoOfBlob } from './pricing';

export interface DownloadManagerDeps {
  store: DownloadStore;
  jobs: JobsStore;
  client: () => LibraryClient | null;
  defaultDir: string;
  wake: () => void;
  abort: (target: string) => void;
  emit: (p: DownloadProgress) => void;
}

const TERMINAL: readonly DownloadState[] = ['done', 'failed', 'gone', 'cancelled'];

/** Downloads as rows: quote, start (queue a job), cancel, retry, list, and waiting for one to settle. */
export class DownloadManager {
  private readonly waiters = new Map<number, ((row: DownloadRow) => void)[]>();

  constructor(private readonly d: DownloadManagerDeps) {}

  /** Cost before starting: the size from get_metadata for a video, at 0.12 USD/GB. */
  async quote(bucket: string, blob: string, videoNo?: string, signal?: AbortSignal): Promise<Quote> {
    const client = this.d.client();
    const no = videoNo ?? videoNoOfBlob(blob);
    if (!client) throw new AppError('offline', 'no library service is configured');
    if (!no)
      return quoteOf(
        null,
        'the size of keyframes and images is not published before downloading; they are billed by bytes sent (0.12 USD/GB)',
      );
    const meta = await client.getMetadata(no, signal);
    if (!meta) throw new AppError('not_found', `the library has no video ${no}`);
    if (meta.video_blob !== blob || meta.video_bucket !== bucket) {
      return quoteOf(null, `not the original of ${no}: billed by bytes sent (0.12 USD/GB)`);
    }
    return quoteOf(
      meta.size,
      `${meta.size} bytes at 0.12 USD per GB; the service checks the balance before sending a byte`,
    );
  }

  /** Queues a download (reusing one of the same resource into the same folder that is still going or done). */
  async start(input: {
    kind: DownloadKind;
    bucket: string;
    blob: string;
    videoNo?: string;
    destDir?: string;
    quote?: Quote;
  }): Promise<DownloadRow> {
    if (!this.d.client()) throw new AppError('offline', 'no library service is configured');
    const destDir = resolve(input.destDir ?? this.d.defaultDir);
    const existing = this.d.store.reusable(input.bucket, input.blob, destDir);
    if (existing && (existing.state !== 'done' || (existing.path !== null && existsSync(existing.path))))
      return existing;
    const quote = input.quote ?? (await this.quote(input.bucket, input.blob, input.videoNo).catch(() => null));
    const row = this.d.store.create({
      kind: input.kind,
      bucket: input.bucket,
      blob: input.blob,
      videoNo: input.videoNo ?? videoNoOfBlob(input.blob),
      destDir,
      quotedBytes: quote?.bytes ?? null,
      quotedMicroUsd: quote?.usd === null || quote?.usd === undefined ? null : Math.round(quote.usd * 1e6),
    });
    this.d.jobs.enqueue('download', String(row.id), Date.now());
    this.notify(row);
    this.d.wake();
    return row;
  }

  async cancel(id: number): Promise<boolean> {
    const row = this.d.store.get(id);
    if (!row || TERMINAL.includes(row.state)) return false;
    const cancelled = this.d.store.setState(id, 'cancelled', 'cancelled');
    this.d.jobs.cancelOpen('download', String(id));
    this.d.abort(String(id));
    await rm(partPathOf(row), { force: true });
    if (cancelled) this.notify(cancelled);
    return true;
  }

  /** A failed or cancelled download queued again (resuming from its part when there is one). */
  retry(id: number): DownloadRow {
    const row = this.d.store.get(id);
    if (!row) throw new AppError('not_found', `no download ${id}`);
    if (row.state !== 'failed' && row.state !== 'cancelled')
      throw new AppError('conflict', `download ${id} is ${row.state}`);
    const queued = this.d.store.setState(id, 'queued', null);
    this.d.jobs.enqueue('download', String(id), Date.now());
    if (queued) this.notify(queued);
    this.d.wake();
    return queued ?? row;
  }

  get(id: number): DownloadRow | undefined {
    return this.d.store.get(id);
  }

  list(limit: number, states?: readonly DownloadState[]): DownloadRow[] {
    return this.d.store.list(limit, states);
  }

  /** Resolves with the row once it is done, failed, gone or cancelled. */
  settled(id: number): Promise<DownloadRow> {
    const row = this.d.store.get(id);
    if (!row) return Promise.reject(new AppError('not_found', `no download ${id}`));
    if (TERMINAL.includes(row.state)) return Promise.resolve(row);
    return new Promise((res) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), res]));
  }

  /** Called by the job handler on every change. */
  notify(row: DownloadRow, live?: { rate: number; etaSeconds: number | null }): void {
    this.d.emit({
      id: row.id,
      state: row.state,
      bytes: row.bytes,
      total: row.total,
      rate: live?.rate ?? 0,
      etaSeconds: live?.etaSeconds ?? null,
    });
    if (!TERMINAL.includes(row.state)) return;
    const waiters = this.waiters.get(row.id);
    this.waiters.delete(row.id);
    for (const w of waiters ?? []) w(row);
  }
}

export function downloadView(row: DownloadRow): DownloadView {
  return {
    id: row.id,
    kind: row.kind,
    bucket: row.bucket,
    blob: row.blob,
    videoNo: row.video_no,
    state: row.state,
    bytes: row.bytes,
    total: row.total,
    destDir: row.dest_dir,
    path: row.path,
    quote: quoteOf(
      row.quoted_bytes,
      row.quoted_bytes === null ? 'size unknown before downloading' : `${row.quoted_bytes} bytes at 0.12 USD per GB`,
    ),
    restarts: row.restarts,
    resumes: row.resumes,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
