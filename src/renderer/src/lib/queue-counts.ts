import type { FileStatus } from '../../../shared/contract/sync';

export interface QueueCounts {
  /** Still to be uploaded or indexed. */
  busy: number;
  /** Upload or indexing failed for good (until retried). */
  failed: number;
  indexed: number;
  /** Refused before upload (not a video, or a broken one) and cancelled by the user. */
  skipped: number;
  /** Every file not deleted: the same denominator whatever state the files move through. */
  total: number;
  /** Files that can become searchable: all but the skipped (the "N/M searchable" denominator). */
  searchable: number;
}

const BUSY: readonly FileStatus[] = ['waiting', 'queued', 'uploading', 'indexing'];
const FAILED: readonly FileStatus[] = ['failed', 'index_failed'];
const SKIPPED: readonly FileStatus[] = ['skipped', 'cancelled'];

/** The sidebar's and the status bar's numbers, from `sync:status` byStatus, so the two never disagree. */
export function queueCounts(by: Record<string, number> | undefined): QueueCounts {
  const sum = (keys: readonly FileStatus[]): number => keys.reduce((n, k) => n + (by?.[k] ?? 0), 0);
  const total = Object.entries(by ?? {}).reduce((n, [k, v]) => (k === 'deleted' ? n : n + v), 0);
  const skipped = sum(SKIPPED);
  return {
    busy: sum(BUSY),
    failed: sum(FAILED),
    indexed: by?.indexed ?? 0,
    skipped,
    total,
    searchable: total - skipped,
  };
}
