import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
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
 * How requests leave this machine: straight, or through the proxy HTTPS_PROXY / HTTP_PROXY name, except for the hosts
 * NO_PROXY lists (read from the environment when the download starts, as curl and the Hub's own clients do).
 */
export function modelHostDispatcher(): Dispatcher {
  return new EnvHttpProxyAgent();
}

/**
 * Sends a request and follows redirects itself. With `sameOriginOnly` it stops at a redirect to another origin and
 * answers that redirect: what a file is (its size and checksum) is taken only from the configured host's answers,
 * never from a CDN's, whose own ETag is another 64-hex value. Without it (downloading), it follows to the CDN.
 */
async function follow(
  url: URL,
  method: 'HEAD' | 'GET',
  headers: Record<string, string>,
  signal: AbortSignal,
  dispatcher: Dispatcher,
  sameOriginOnly = false,
): Promise<{ hostAnswers: Headers[]; response: Dispatcher.ResponseData; crossed: boolean }> {
  let at = url;
  const hostAnswers: Headers[] = [];
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await request(at, { method, headers, signal, dispatcher, ...TIMEOUTS });
    if (at.origin === url.origin) hostAnswers.push(response.headers);
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      const next = new URL(location, at);
      if (next.protocol !== 'https:' && next.protocol !== 'http:') {
        await response.body.dump();
        throw new ModelDownloadError(`the model host redirected to ${next.protocol}`, false);
      }
      if (sameOriginOnly && next.origin !== url.origin) return { hostAnswers, response, crossed: true };
      await response.body.dump();
      at = next;
      continue;
    }
    return { hostAnswers, response, crossed: false };
  }
  throw new ModelDownloadError(`more than ${MAX_REDIRECTS} redirects for ${url.href}`, false);
}

/** The first value of a header across the configured host's answers (earliest first). */
function firstHeader(answers: Headers[], name: string): string | undefined {
  for (const h of answers) {
    const v = h[name];
    const one = Array.isArray(v) ? v[0] : v;
    if (one !== undefined) return one;
  }
  return undefined;
}

/** The revision the host resolved a file at (the Hub's `X-Repo-Commit`), to pin every other file to it. */
export function repoCommit(answers: Headers[]): string | null {
  const commit = firstHeader(answers, 'x-repo-commit');
  return commit && /^[0-9a-f]{40}$/i.test(commit) ? commit.toLowerCase() : null;
}

/**
 * Size and stated checksum of a file, from a HEAD request to the configured host alone (a redirect to another host, the
 * Hub's signed CDN address for LFS files, is not followed); refuses a file whose checksum the host does not state.
 */
export async function probeFile(
  name: string,
  url: URL,
  signal: AbortSignal,
  dispatcher: Dispatcher,
): Promise<RemoteFile & { commit: string | null }> {
  const { hostAnswers, response, crossed } = await follow(url, 'HEAD', {}, signal, dispatcher, true);
  await response.body.dump();
  if (response.statusCode === 404 || response.statusCode === 401 || response.statusCode === 403)
    throw new ModelDownloadError(`the model host has no ${name} (HTTP ${response.statusCode} for ${url.href})`, false);
  if (!crossed && response.statusCode !== 200)
    throw new ModelDownloadError(`the model host answered HTTP ${response.statusCode} for ${name}`, true);
  let checksum = null;
  for (const answer of hostAnswers) checksum ??= statedChecksum(answer);
  if (!checksum)
    throw new ModelDownloadError(
      `the model host states no checksum for ${name} (no X-Linked-Etag or ETag): refusing to use it`,
      false,
    );
  const stated =
    firstHeader(hostAnswers, 'x-linked-size') ?? (crossed ? undefined : response.headers['content-length']);
  const size = Number(Array.isArray(stated) ? stated[0] : stated);
  if (stated === undefined || !Number.isSafeInteger(size) || size < 0)
    throw new ModelDownloadError(`the model host states no size for ${name}`, false);
  return { name, url, size, checksum, commit: repoCommit(hostAnswers) };
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
  dispatcher: Dispatcher,
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
    const { response } = await follow(file.url, 'GET', have > 0 ? { range: `bytes=${have}-` } : {}, signal, dispatcher);
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
