import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { outboundAgent } from '../security/agents';
import { OperationFailure } from './operation-failure';
import { MAX_MEDIA_BYTES, mayBeVideoType } from './media';

const PAGE_TYPES = ['text/html', 'application/xhtml+xml'];
const PLAYLIST_TYPES = [
  'application/vnd.apple.mpegurl',
  'application/x-mpegurl',
  'audio/mpegurl',
  'application/dash+xml',
];

export interface FetchOptions {
  maxBytes?: number;
  signal: AbortSignal;
  /** network.allowPrivateTargets: false refuses loopback/private targets, on every redirect hop too. */
  allowPrivateTargets: boolean;
  onProgress?: (fraction: number) => void;
}

/**
 * Downloads a direct media URL to `dest`, checking as it streams: an answer that is not 2xx, a web page or a playlist
 * is source_unresolved; another non-video type is unsupported_media; more than maxBytes is media_too_large.
 */
export async function fetchSource(
  url: string,
  dest: string,
  opts: FetchOptions,
): Promise<{ size: number; contentType: string | undefined }> {
  const maxBytes = opts.maxBytes ?? MAX_MEDIA_BYTES;
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(url, {
      method: 'GET',
      dispatcher: outboundAgent('source', opts.allowPrivateTargets),
      signal: opts.signal,
      headers: { 'user-agent': 'Reelsync-Datalake/1', accept: 'video/*, application/octet-stream;q=0.9, */*;q=0.1' },
    });
  } catch (err) {
    if (opts.signal.aborted) throw err;
    throw new OperationFailure(
      'source_unresolved',
      `could not reach ${url}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const header = res.headers['content-type'];
  const contentType = typeof header === 'string' ? header : undefined;
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const refuse = async (failure: OperationFailure): Promise<never> => {
    await res.body.dump().catch(() => {});
    throw failure;
  };
  if (res.statusCode < 200 || res.statusCode >= 300)
    await refuse(new OperationFailure('source_unresolved', `${url} answered HTTP ${res.statusCode}`));
  if (PAGE_TYPES.includes(type))
    await refuse(new OperationFailure('source_unresolved', `${url} is a web page (${type}), not a direct media URL`));
  if (PLAYLIST_TYPES.includes(type))
    await refuse(
      new OperationFailure('source_unresolved', `${url} is a streaming playlist (${type}), not a media file`),
    );
  if (!mayBeVideoType(contentType))
    await refuse(new OperationFailure('unsupported_media', `${url} serves ${type}, not a video`));
  const lengthHeader = res.headers['content-length'];
  const declared = typeof lengthHeader === 'string' && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  if (declared !== null && declared > maxBytes)
    await refuse(new OperationFailure('media_too_large', `${url} is ${declared} bytes, more than ${maxBytes}`));

  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) {
        done(new OperationFailure('media_too_large', `${url} sent more than ${maxBytes} bytes`));
        return;
      }
      if (declared) opts.onProgress?.(size / declared);
      done(null, chunk);
    },
  });
  try {
    await pipeline(res.body, meter, createWriteStream(dest), { signal: opts.signal });
  } catch (err) {
    await rm(dest, { force: true });
    if (err instanceof OperationFailure || opts.signal.aborted) throw err;
    throw new OperationFailure(
      'source_unresolved',
      `download from ${url} broke off: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (size === 0) throw new OperationFailure('unsupported_media', `${url} sent an empty body`);
  return { size, contentType };
}
