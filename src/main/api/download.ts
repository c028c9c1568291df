import { createWriteStream } from 'node:fs';
import { truncate } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { API_MESSAGES, ENVELOPE_CODES, envelopeSchema } from '../../shared/api-types';
import { describeError } from '../../shared/errors';
import type { Logger } from '../log';
import { ApiError, classify, fromTransportError, parseRetryAfter } from './errors';

export interface BlobDownloaderOptions {
  /** Base address including /serve/api/v1. */
  baseUrl: string;
  key: string;
  logger: Logger;
  dispatcher?: Dispatcher;
  /** No bytes for this long: the connection is given up (and the download retried). */
  idleTimeoutMs?: number;
}

/** How one GET /download ended. Transport failures mid-body are not results: they throw (the part file keeps its bytes). */
export type FetchResult =
  | { type: 'complete'; bytes: number; total: number | null; fileName: string | null; contentType: string; resumed: boolean }
  /** The server ignored the Range (200) or the part no longer fits (416, other start): the part was truncated; fetch again. */
  | { type: 'restart'; reason: string }
  /** "Resource does not exist": the bucket/blob is gone (deleted video, wrong address). Never retried. */
  | { type: 'gone'; message: string }
  | { type: 'error'; error: ApiError };

export interface FetchOptions {
  /** Bytes already in the part file: asked for with `Range: bytes=N-`. */
  offset: number;
  /** Total size learned on an earlier attempt: a different total on resume means a different object, so restart. */
  expectedTotal: number | null;
  signal?: AbortSignal;
  /** First answer accepted: where the body starts, the total, the file name the server suggests. */
  onStart?: (info: { offset: number; total: number | null; fileName: string | null }) => void;
  onBytes?: (n: number) => void;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const contentRangeSchema = z.string().regex(/^bytes (\d+)-(\d+)\/(\d+|\*)$/);

/**
 * Streaming GET {base}/download?bucket=&blob= into a part file, resuming with one Range. Success and failure are told
 * apart by the Content-Type (the contract's JSON envelope instead of a stream), then by the status. Statuses and codes
 * map to retry / rate-limited / fatal through `classify`; "Resource does not exist" becomes `gone`.
 */
export class BlobDownloader {
  private readonly base: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly log: Logger;

  constructor(private readonly o: BlobDownloaderOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.ownsDispatcher = !o.dispatcher;
    const idle = o.idleTimeoutMs ?? 120_000;
    this.dispatcher = o.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 8, headersTimeout: idle, bodyTimeout: idle });
    this.log = o.logger.child({ module: 'download' });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  url(bucket: string, blob: string): string {
    // Reserved characters encoded, the path's slashes kept (the contract's rule for blob).
    const encodedBlob = blob.split('/').map(encodeURIComponent).join('/');
    return `${this.base}/download?bucket=${encodeURIComponent(bucket)}&blob=${encodedBlob}`;
  }

  async fetchTo(bucket: string, blob: string, partPath: string, o: FetchOptions): Promise<FetchResult> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(this.url(bucket, blob), {
        method: 'GET',
        dispatcher: this.dispatcher,
        headers: { authorization: this.o.key, range: `bytes=${o.offset}-`, 'accept-encoding': 'identity' },
        signal: o.signal,
      });
    } catch (err) {
      throw fromTransportError(err, o.signal);
    }
    const contentType = headerOf(res.headers['content-type']) ?? '';
    if (JSON_TYPE.test(contentType) || res.statusCode >= 400) return this.failure(res, contentType);
    if (res.statusCode === 416) {
      await res.body.dump();
      return { type: 'restart', reason: 'the part is larger than the resource (416)' };
    }
    if (res.statusCode !== 200 && res.statusCode !== 206) {
      await res.body.dump();
      return { type: 'error', error: classify(res.statusCode, undefined, undefined, `unexpected HTTP ${res.statusCode} for a download`) };
    }
    const fileName = dispositionName(res.headers['content-disposition']);
    let start = 0;
    let total: number | null = numberHeader(res.headers['content-length']);
    if (res.statusCode === 206) {
      const range = contentRangeSchema.safeParse(headerOf(res.headers['content-range']));
      if (!range.success) {
        await res.body.dump();
        return { type: 'error', error: new ApiError('retry', 'protocol', 'a 206 answer without a usable Content-Range') };
      }
      const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range.data);
      start = Number(m?.[1]);
      total = m?.[3] === '*' ? null : Number(m?.[3]);
    }
    const sameObject = o.expectedTotal === null || total === null || total === o.expectedTotal;
    if (start !== o.offset || (o.offset > 0 && !sameObject)) {
      // Not the continuation we asked for: keep nothing, start clean next time.
      res.body.destroy();
      await truncatePart(partPath);
      const reason = res.statusCode === 200 ? 'the server ignored the Range (200)' : start !== o.offset ? `the server answered from byte ${start}, asked ${o.offset}` : 'the resource changed size';
      return { type: 'restart', reason };
    }
    o.onStart?.({ offset: start, total, fileName });
    let bytes = 0;
    try {
      bytes = await writeBody(res.body, partPath, start, o.onBytes);
    } catch (err) {
      this.log.debug({ bucket, blob, bytes, err: String(err) }, 'download interrupted');
      throw fromTransportError(err, o.signal);
    }
    const expectedBody = total === null ? null : total - start;
    if (expectedBody !== null && bytes !== expectedBody) {
      throw new ApiError('retry', 'network', `connection ended after ${bytes} of ${expectedBody} bytes`);
    }
    return { type: 'complete', bytes: start + bytes, total, fileName, contentType, resumed: start > 0 };
  }

  private async failure(res: Dispatcher.ResponseData, contentType: string): Promise<FetchResult> {
    const text = await res.body.text();
    const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
    let parsed: z.infer<ReturnType<typeof envelopeSchema>> | null = null;
    try {
      const env = envelopeSchema(z.unknown()).safeParse(JSON.parse(text));
      if (env.success) parsed = env.data;
    } catch {
      parsed = null;
    }
    if (!parsed) return { type: 'error', error: classify(res.statusCode, undefined, retryAfterMs, `HTTP ${res.statusCode} (${contentType || 'no type'}): ${text.slice(0, 200)}`) };
    if (parsed.msg === API_MESSAGES.resourceMissing) return { type: 'gone', message: parsed.msg };
    if (parsed.code === ENVELOPE_CODES.success && res.statusCode < 300) {
      return { type: 'error', error: new ApiError('fatal', 'protocol', 'a JSON success envelope where a file stream was expected') };
    }
    return { type: 'error', error: classify(res.statusCode, parsed.code, retryAfterMs, parsed.msg) };
  }
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function numberHeader(value: string | string[] | undefined): number | null {
  const raw = headerOf(value);
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/** The file name a Content-Disposition header suggests (filename* preferred), unsanitised; null when none. */
export function dispositionName(value: string | string[] | undefined): string | null {
  const raw = headerOf(value);
  if (!raw) return null;
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(raw);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(raw);
  const name = plain?.[1] ?? plain?.[2];
  return name ? name.replace(/\\(.)/g, '$1').trim() : null;
}

/**
 * Body -> part file from `start`, piped (disk writes overlap network reads, with backpressure: as fast as `curl -o`).
 * However the body ends (complete, aborted, connection lost), every byte received is flushed to the file before this
 * returns or rethrows, so the part's size is always the resume offset. `onBytes` counts bytes received.
 */
async function writeBody(body: Readable, partPath: string, start: number, onBytes: ((n: number) => void) | undefined): Promise<number> {
  const out = createWriteStream(partPath, { flags: start > 0 ? 'r+' : 'w', start, highWaterMark: 4 << 20 });
  let bytes = 0;
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    onBytes?.(chunk.length);
  });
  const bodyDone = new Promise<{ error: Error | null }>((resolve) => {
    body.once('end', () => resolve({ error: null }));
    body.once('error', (error: unknown) => resolve({ error: asError(error) }));
    body.once('close', () => resolve({ error: body.readableEnded ? null : new Error('the response body closed before its end') }));
  });
  const outFailed = new Promise<{ error: Error; out: true }>((resolve) => out.once('error', (error: unknown) => resolve({ error: asError(error), out: true })));
  body.pipe(out);
  const first = await Promise.race([bodyDone, outFailed]);
  if ('out' in first) {
    body.destroy();
    throw first.error;
  }
  if (first.error !== null) {
    body.unpipe(out);
    out.end();
  }
  await finished(out);
  if (first.error !== null) throw first.error;
  return bytes;
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(describeError(err));
}

async function truncatePart(partPath: string): Promise<void> {
  await truncate(partPath, 0).catch((err: unknown) => {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  });
}
