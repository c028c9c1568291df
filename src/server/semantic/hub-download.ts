import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { request, type Dispatcher } from 'undici';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../common/private-files';
import { contentHash, statedChecksum, type StatedChecksum } from './file-checksum';
import { hashingMeter } from '../../common/hashing-meter';

/** One file of a model on an http(s) host: its size and the checksum the host states for it. */
export interface RemoteFile {
  name: string;
  url: URL;
  size: number;
  checksum: StatedChecksum;
}

export class ModelDownloadError extends Error {
  constructor(
    message: string,
    /** false: trying again cannot help (a checksum mismatch, a file the host does not have). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ModelDownloadError';
  }
}

const MAX_REDIRECTS = 5;
const TIMEOUTS = { headersTimeout: 30_000, bodyTimeout: 60_000 };
type Headers = Record<string, string | string[] | undefined>;

/**
 * Sends a request and follows redirects itself (the Hub sends LFS files to a CDN on another host), keeping the
 * checksum headers of the first answer: the resolve address states the file's sha256, the CDN does not.
 */
async function follow(
  url: URL,
  method: 'HEAD' | 'GET',
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ first: Headers; response: Dispatcher.ResponseData }> {
  let at = url;
  let first: Headers | undefined;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await request(at, { method, headers, signal, ...TIMEOUTS });
    first ??= response.headers;
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      await response.body.dump();
      const next = new URL(location, at);
      if (next.protocol !== 'https:' && next.protocol !== 'http:')
        throw new ModelDownloadError(`the model host redirected to ${next.protocol}`, false);
      at = next;
      continue;
    }
    return { first, response };
  }
  throw new ModelDownloadError(`more than ${MAX_REDIRECTS} redirects for ${url.href}`, false);
}

/** Size and stated checksum of a file, from a HEAD request; refuses a file whose checksum the host does not state. */
export async function probeFile(name: string, url: URL, signal: AbortSignal): Promise<RemoteFile> {
  const { first, response } = await follow(url, 'HEAD', {}, signal);
  await response.body.dump();
  if (response.statusCode === 404 || response.statusCode === 401 || response.statusCode === 403)
    throw new ModelDownloadError(`the model host has no ${name} (HTTP ${response.statusCode} for ${url.href})`, false);
  if (response.statusCode !== 200)
    throw new ModelDownloadError(`the model host answered HTTP ${response.statusCode} for ${name}`, true);
  const checksum = statedChecksum(first) ?? statedChecksum(response.headers);
  if (!checksum)
    throw new ModelDownloadError(
      `the model host states no checksum for ${name} (no X-Linked-Etag or ETag): refusing to use it`,
      false,
    );
  const size = Number(first['x-linked-size'] ?? response.headers['content-length']);
  if (!Number.isSafeInteger(size) || size < 0)
    throw new ModelDownloadError(`the model host states no size for ${name}`, false);
  return { name, url, size, checksum };
}

/**
 * Downloads a file to `partPath`, resuming from the bytes already there (HTTP Range), hashes the whole content and
 * moves it to `finalPath` only if it matches the stated checksum; a mismatch deletes the part and is refused.
 * `onBytes` hears every new byte count (resumed bytes count once, at the start).
 */
export async function downloadFile(
  file: RemoteFile,
  partPath: string,
  finalPath: string,
  onBytes: (bytes: number) => void,
  signal: AbortSignal,
): Promise<void> {
  await mkdir(dirname(partPath), { recursive: true, mode: PRIVATE_DIR });
  let have = (await stat(partPath).catch(() => null))?.size ?? 0;
  if (have > file.size) {
    await rm(partPath, { force: true });
    have = 0;
  }
  let hash = contentHash(file.checksum, file.size);
  if (have > 0) {
    for await (const chunk of createReadStream(partPath, { end: have - 1 })) hash.update(chunk as Buffer);
    onBytes(have);
  }
  if (have < file.size) {
    const { response } = await follow(file.url, 'GET', have > 0 ? { range: `bytes=${have}-` } : {}, signal);
    if (response.statusCode === 200 && have > 0) {
      // The host ignored the range: start over.
      onBytes(-have);
      have = 0;
      hash = contentHash(file.checksum, file.size);
    } else if (response.statusCode === 206) {
      const start = /^bytes (\d+)-/.exec(String(response.headers['content-range'] ?? ''))?.[1];
      if (Number(start) !== have) {
        await response.body.dump();
        throw new ModelDownloadError(`the model host resumed ${file.name} at the wrong offset`, true);
      }
    } else if (response.statusCode !== 200) {
      await response.body.dump();
      throw new ModelDownloadError(`the model host answered HTTP ${response.statusCode} for ${file.name}`, true);
    }
    await pipeline(
      response.body,
      hashingMeter(hash, onBytes),
      createWriteStream(partPath, { flags: have > 0 ? 'a' : 'w', mode: PRIVATE_FILE }),
      { signal },
    );
  }
  const got = (await stat(partPath)).size;
  if (got !== file.size) throw new ModelDownloadError(`${file.name} ended after ${got} of ${file.size} bytes`, true);
  const digest = hash.digest('hex');
  if (digest !== file.checksum.hex) {
    await rm(partPath, { force: true });
    throw new ModelDownloadError(
      `${file.name} does not match the checksum its host states (${file.checksum.kind} ${file.checksum.hex}, got ${digest}): refused and deleted`,
      false,
    );
  }
  await rename(partPath, finalPath);
}
