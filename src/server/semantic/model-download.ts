import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRIVATE_DIR } from '../../common/private-files';
import { modelFiles, resolveUrl } from './hub-files';
import type { Dispatcher } from 'undici';
import { downloadFile, modelHostDispatcher, ModelDownloadError, probeFile, type RemoteFile } from './hub-download';
import type { CompleteMarker, ModelCache } from './model-cache';
import type { SemanticConfig } from './semantic-config';

export interface DownloadProgress {
  file: string;
  receivedBytes: number;
  totalBytes: number | null;
}

/** Attempts per file; between them the part file stays, so each attempt resumes where the last one stopped. */
const ATTEMPTS = 5;
const FIRST_RETRY_MS = 500;

/**
 * Fetches every file of the configured model into the cache: from an http(s) host, each file probed first (size and
 * stated checksum), then downloaded with resume and checked; from a folder, copied. Ends with the complete marker.
 */
export async function downloadModel(
  config: SemanticConfig,
  cache: ModelCache,
  onProgress: (p: DownloadProgress) => void,
  signal: AbortSignal,
): Promise<CompleteMarker> {
  const names = modelFiles(config);
  const files = isAbsolute(config.host)
    ? await copyFromFolder(config, cache, names, onProgress)
    : await fetchFromHost(config, cache, names, onProgress, signal);
  const marker: CompleteMarker = {
    model: config.model,
    revision: config.revision,
    dtype: config.dtype,
    host: config.host,
    sizeBytes: files.reduce((n, f) => n + f.size, 0),
    files,
    completedAt: new Date().toISOString(),
  };
  await cache.markComplete(config, marker);
  return marker;
}

async function fetchFromHost(
  config: SemanticConfig,
  cache: ModelCache,
  names: string[],
  onProgress: (p: DownloadProgress) => void,
  signal: AbortSignal,
): Promise<CompleteMarker['files']> {
  const dispatcher = modelHostDispatcher();
  try {
    return await fetchThrough(dispatcher, config, cache, names, onProgress, signal);
  } finally {
    await dispatcher.close();
  }
}

async function fetchThrough(
  dispatcher: Dispatcher,
  config: SemanticConfig,
  cache: ModelCache,
  names: string[],
  onProgress: (p: DownloadProgress) => void,
  signal: AbortSignal,
): Promise<CompleteMarker['files']> {
  // Every file at the commit the host resolved the first one at: a `main` that moves meanwhile cannot mix revisions.
  let revision = config.revision;
  const remote: RemoteFile[] = [];
  for (const name of names) {
    const probed = await withRetries(() =>
      probeFile(name, resolveUrl({ ...config, revision }, name), signal, dispatcher),
    );
    if (remote.length === 0 && probed.commit && probed.commit !== revision) {
      revision = probed.commit;
      probed.url = resolveUrl({ ...config, revision }, name);
    }
    remote.push(probed);
  }
  const totalBytes = remote.reduce((n, f) => n + f.size, 0);
  let receivedBytes = 0;
  for (const file of remote) {
    const finalPath = cache.filePath(config, file.name);
    const done = await stat(finalPath).catch(() => null);
    if (done?.size === file.size) {
      // Checked when it was downloaded (the rename happens only after the check).
      receivedBytes += file.size;
      onProgress({ file: file.name, receivedBytes, totalBytes });
      continue;
    }
    const before = receivedBytes;
    await withRetries(() => {
      receivedBytes = before;
      return downloadFile(
        file,
        cache.partPath(config, file.name),
        finalPath,
        (bytes) => {
          receivedBytes += bytes;
          onProgress({ file: file.name, receivedBytes, totalBytes });
        },
        signal,
        dispatcher,
      );
    }, signal);
  }
  return remote.map((f) => ({ name: f.name, size: f.size, checksum: f.checksum }));
}

/** A folder host holds `<model>/<file>` (the layout transformers.js reads): the files are copied into the cache. */
async function copyFromFolder(
  config: SemanticConfig,
  cache: ModelCache,
  names: string[],
  onProgress: (p: DownloadProgress) => void,
): Promise<{ name: string; size: number }[]> {
  const sources = [];
  for (const name of names) {
    const source = join(config.host, ...config.model.split('/'), ...name.split('/'));
    const info = await stat(source).catch(() => null);
    if (!info?.isFile()) throw new ModelDownloadError(`the model folder has no ${name} (${source})`, false);
    sources.push({ name, source, size: info.size });
  }
  const totalBytes = sources.reduce((n, f) => n + f.size, 0);
  let receivedBytes = 0;
  for (const f of sources) {
    const target = cache.filePath(config, f.name);
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR });
    await copyFile(f.source, target);
    receivedBytes += f.size;
    onProgress({ file: f.name, receivedBytes, totalBytes });
  }
  return sources.map(({ name, size }) => ({ name, size }));
}

async function withRetries<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const retryable = !(err instanceof ModelDownloadError) || err.retryable;
      if (signal?.aborted || !retryable || n >= ATTEMPTS) throw err;
      await sleep(FIRST_RETRY_MS * 2 ** (n - 1) * (0.5 + Math.random()), undefined, { signal });
    }
  }
}

/**
 * What the model weighs before anything is downloaded: each file's size as its host states it (HEAD requests, the same
 * probe the download starts with), or as the folder holds it.
 */
export async function expectedModelBytes(config: SemanticConfig, signal: AbortSignal): Promise<number> {
  const names = modelFiles(config);
  if (isAbsolute(config.host)) {
    let total = 0;
    for (const name of names) {
      const info = await stat(join(config.host, ...config.model.split('/'), ...name.split('/')));
      total += info.size;
    }
    return total;
  }
  const dispatcher = modelHostDispatcher();
  try {
    let total = 0;
    for (const name of names) total += (await probeFile(name, resolveUrl(config, name), signal, dispatcher)).size;
    return total;
  } finally {
    await dispatcher.close();
  }
}
