import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { copyFixture } from '../fixtures/media';
import { apiClient } from './api';
import { startFaultProxy, type FaultKind, type FaultProxy } from './fault-proxy';
import { startLibrary } from './library';
import { startService } from './service';
import { startEngine } from './sync-engine';

export interface FaultScenarioOptions {
  dir: string;
  uploads: number;
  downloads: number;
  rates: Partial<Record<FaultKind, number>>;
  seed: number;
  /** Paths the faults hit (default: every request). */
  targets?: RegExp;
  /** Gives up (and reports what is missing) after this long. */
  timeoutMs: number;
  log?: (line: string) => void;
}

export interface FaultScenarioResult {
  faults: FaultProxy['counts'];
  /** Requests the proxy saw for upload and download, against the number of files. */
  uploadRequests: number;
  downloadRequests: number;
  uploaded: number;
  /** Contents whose hash tag names more than one library video. */
  duplicates: string[];
  /** Files with no library video at the end. */
  missing: string[];
  failedUploads: string[];
  downloadsDone: number;
  corrupt: string[];
  failedDownloads: string[];
  uploadMs: number;
  downloadMs: number;
}

const sha256 = (buf: Buffer): string => createHash('sha256').update(buf).digest('hex');

/**
 * N distinct small videos synced by the real engine and M of them downloaded by the real download manager, both
 * through a fault-injecting proxy in front of the real service; then counted on the service side by content hash.
 */
export async function runFaultScenario(o: FaultScenarioOptions): Promise<FaultScenarioResult> {
  const log = o.log ?? (() => {});
  const service = await startService({
    credits: 1000,
    config: {
      indexer: { paused: true },
      limits: {
        searchPerSecond: 100_000,
        uploadPerMinute: 100_000,
        downloadPerMinute: 100_000,
        indexQueueCap: 100_000,
      },
    },
  });
  const proxy = await startFaultProxy({
    target: service.origin,
    rates: o.rates,
    seed: o.seed,
    targets: o.targets,
    everyKindFirst: true,
    stallMs: 1500,
    slowMs: 20,
  });
  const viaProxy = { baseUrl: `${proxy.origin}${API_BASE_PATH}`, key: service.key };
  const direct = apiClient(service.baseUrl, service.key);
  try {
    const folder = join(o.dir, 'card');
    await mkdir(folder, { recursive: true });
    const hashes = new Map<string, string>(); // hash -> local path
    for (let i = 0; i < o.uploads; i++) {
      const file = await copyFixture('phoneH264Mp4', folder, `take ${String(i).padStart(3, '0')}.mp4`);
      await appendFile(file, randomBytes(8 * 1024 + i));
      hashes.set(sha256(await readFile(file)), file);
    }
    const t0 = Date.now();
    const failedUploads: string[] = [];
    const engine = await startEngine(join(o.dir, 'engine'), viaProxy.baseUrl, viaProxy.key, { uploadConcurrency: 4 });
    try {
      await engine.engine.addFolder({ path: folder });
      await engine.engine.scan();
      const deadline = Date.now() + o.timeoutMs;
      for (;;) {
        const row = engine.db
          .prepare("SELECT sum(video_no IS NOT NULL) AS linked, sum(state = 'failed') AS failed FROM contents")
          .get() as { linked: number | null; failed: number | null };
        if ((row.linked ?? 0) + (row.failed ?? 0) >= o.uploads || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const failed = engine.db.prepare("SELECT hash, reason FROM contents WHERE state = 'failed'").all() as {
        hash: string;
        reason: string | null;
      }[];
      for (const f of failed) failedUploads.push(`${hashes.get(f.hash) ?? f.hash}: ${f.reason ?? ''}`);
    } finally {
      await engine.stop();
    }
    const uploadMs = Date.now() - t0;
    const duplicates: string[] = [];
    const missing: string[] = [];
    const blobs = new Map<string, { bucket: string; blob: string }>();
    for (const [hash, file] of hashes) {
      const found = await direct.post<{ total_count: number; videos: { video_bucket: string; video_blob: string }[] }>(
        '/list_videos',
        { tag: `sha256:${hash}`, page: 1, size: 10 },
      );
      const count = found.json.data?.total_count ?? 0;
      if (count > 1) duplicates.push(`${file}: ${count} videos`);
      if (count === 0) missing.push(file);
      const v = found.json.data?.videos[0];
      if (v) blobs.set(hash, { bucket: v.video_bucket, blob: v.video_blob });
    }
    const total =
      (await direct.post<{ total_count: number }>('/list_videos', { page: 1, size: 1 })).json.data?.total_count ?? -1;
    if (total !== o.uploads) duplicates.push(`the library holds ${total} videos for ${o.uploads} files`);
    const uploaded = blobs.size;
    log(`uploads: ${uploaded}/${o.uploads} in ${uploadMs} ms, faults so far ${JSON.stringify(proxy.counts)}`);

    const t1 = Date.now();
    const lib = await startLibrary(join(o.dir, 'lib'), viaProxy, {
      backoff: { baseMs: 50, maxMs: 500 },
      downloadAttempts: 30,
    });
    const corrupt: string[] = [];
    const failedDownloads: string[] = [];
    let downloadsDone = 0;
    try {
      const picked = [...blobs.entries()].slice(0, o.downloads);
      const rows = await Promise.all(
        picked.map(async ([hash, b]) => ({
          hash,
          row: await lib.feature.downloads.start({
            kind: 'video',
            bucket: b.bucket,
            blob: b.blob,
            destDir: join(o.dir, 'out', hash.slice(0, 12)),
          }),
        })),
      );
      for (const { hash, row } of rows) {
        const done = await lib.feature.downloads.settled(row.id);
        if (done.state !== 'done' || !done.path) {
          failedDownloads.push(`${hashes.get(hash) ?? hash}: ${done.state} ${done.error ?? ''}`);
          continue;
        }
        downloadsDone += 1;
        if (sha256(await readFile(done.path)) !== hash) corrupt.push(done.path);
      }
    } finally {
      await lib.stop();
    }
    const downloadMs = Date.now() - t1;
    return {
      faults: { ...proxy.counts },
      uploadRequests: proxy.byPath.get(`${API_BASE_PATH}/upload`) ?? 0,
      downloadRequests: proxy.byPath.get(`${API_BASE_PATH}/download`) ?? 0,
      uploaded,
      duplicates,
      missing,
      failedUploads,
      downloadsDone,
      corrupt,
      failedDownloads,
      uploadMs,
      downloadMs,
    };
  } finally {
    await proxy.close();
    await service.stop();
  }
}
