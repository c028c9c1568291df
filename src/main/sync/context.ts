import type { LibraryClient } from '../api/client';
import type { Logger } from '../log';
import type { MetadataReader } from '../media/exif';
import type { JobsStore } from '../jobs/jobs-store';
import type { SyncStore } from '../store/sync-store';
import type { UploadHistoryStore } from '../store/upload-history-store';
import type { PauseReason } from '../jobs/client-job-queue';
import type { ProxyDeps } from '../proxy/proxy-job';

export interface SyncConfig {
  /** A file is taken once its size and mtime have not changed for this long. */
  stableMs: number;
  uploadConcurrency: number;
  examineConcurrency: number;
  pollConcurrency: number;
  /** Poll interval bounds for indexing status. */
  pollMinMs: number;
  pollMaxMs: number;
}

export const DEFAULT_SYNC_CONFIG: SyncConfig = {
  stableMs: 3000,
  uploadConcurrency: 2,
  examineConcurrency: 2,
  pollConcurrency: 4,
  pollMinMs: 1000,
  pollMaxMs: 30_000,
};

export interface SyncNotifier {
  fileChanged(fileId: number): void;
  contentChanged(hash: string): void;
  progress(p: {
    fileId: number;
    path: string;
    hash: string;
    bytes: number;
    total: number;
    rate: number;
    etaSeconds: number | null;
  }): void;
  proxyProgress(p: {
    fileId: number;
    path: string;
    hash: string;
    percent: number;
    speed: number;
    etaSeconds: number | null;
    encoder: string;
  }): void;
}

/** What the job handlers share: stores, the API client, exiftool, events. */
export interface SyncDeps {
  store: SyncStore;
  jobs: JobsStore;
  history: UploadHistoryStore;
  client: LibraryClient;
  metadata: MetadataReader;
  logger: Logger;
  notify: SyncNotifier;
  config: SyncConfig;
  proxies: ProxyDeps;
  pauseQueue(reason: PauseReason): void;
  /** New rows were written: let the queue look. */
  wake(): void;
}

/** The tag carrying a content hash, used to find the video again after a crash. */
export const hashTag = (hash: string): string => `sha256:${hash}`;
