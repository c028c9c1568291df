import { truncate } from 'node:fs/promises';
import { z } from 'zod';
import { API_MESSAGES, ENVELOPE_CODES, envelopeSchema } from '../../shared/api-types';
import type { Logger } from '../log';
import { ApiError, classify, fromTransportError, parseRetryAfter } from './errors';
import { rawGet, type RawGetResult } from './raw-get';
import type { ResponseHead } from './response-head';

export interface BlobDownloaderOptions {
  /** Base address including /serve/api/v1. */
  baseUrl: string;
  key: string;
  logger: Logger;
  /** Extra certificate authority to trust for an https service (a team server with its own CA). */
  ca?: string | Buffer;
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

/**
 * Streaming GET {base}/download?bucket=&blob= into a part file (see raw-get.ts for why not undici), resuming with one Range. Success and failure are told
 * apart by the Content-Type (the contract's JSON envelope instead of a stream), then by the status. Statuses and codes
 * map to retry / rate-limited / fatal through `classify`; "Resource does not exist" becomes `gone`.
 */
export class BlobDownloader {
  private readonly base: string;
  private readonly idleMs: number;
  private readonly log: Logger;

  constructor(private readonly o: BlobDownloaderOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.idleMs = o.idleTimeoutMs ?? 120_000;
    this.log = o.logger.child({ module: 'download' });
  }

  /** Each download is one connection of its own (closed when it ends): nothing pooled to close. */
  async close(): Promise<void> {}

  url(bucket: string, blob: string): string {
    // Reserved characters encoded, the path's slashes kept (the contract's rule for blob).
    const encodedBlob = blob.split('/').map(encodeURIComponent).join('/');
    return `${this.base}/download?bucket=${encodeURIComponent(bucket)}&blob=${encodedBlob}`;
  }

  async fetchTo(bucket: string, blob: string, partPath: string, o: FetchOptions): Promise<FetchResult> {
    const seen: { verdict: Verdict | null } = { verdict: null };
    let res: RawGetResult;
    try {
      res = await rawGet(
        this.url(bucket, blob),
        { headers: { authorization: this.o.key, range: `bytes=${o.offset}-`, 'accept-encoding': 'identity', 'user-agent': 'reelsync' }, signal: o.signal, idleTimeoutMs: this.idleMs, ca: this.o.ca },
        (head) => {
          const verdict = judge(head, o);
          seen.verdict = verdict;
          if (verdict.type === 'body') {
            o.onStart?.({ offset: verdict.start, total: verdict.total, fileName: verdict.fileName });
            return { kind: 'file', path: partPath, start: verdict.start, onBytes: o.onBytes };
          }
          return verdict.type === 'failure' ? { kind: 'text', limit: 1 << 20 } : { kind: 'none' };
        },
      );
    } catch (err) {
      this.log.debug({ bucket, blob, err: String(err) }, 'download interrupted');
      throw fromTransportError(err, o.signal);
    }
    const verdict = seen.verdict ?? { type: 'error', error: new ApiError('retry', 'protocol', 'no response head') };
    switch (verdict.type) {
      case 'failure':
        return failure(res.head, res.text ?? '');
      case 'restart':
        // Not the continuation we asked for: keep nothing, start clean next time.
        await truncatePart(partPath);
        return { type: 'restart', reason: verdict.reason };
      case 'error':
        return { type: 'error', error: verdict.error };
      case 'body':
        return { type: 'complete', bytes: verdict.start + res.bytes, total: verdict.total, fileName: verdict.fileName, contentType: verdict.contentType, resumed: verdict.start > 0 };
    }
  }
}

/** What a response head means for a download: a body to write, an envelope to read, or a restart. */
type Verdict =
  | { type: 'body'; start: number; total: number | null; fileName: string | null; contentType: string }
  | { type: 'failure' }
  | { type: 'restart'; reason: string }
  | { type: 'error'; error: ApiError };

function judge(head: ResponseHead, o: FetchOptions): Verdict {
  const contentType = head.headers['content-type'] ?? '';
  if (JSON_TYPE.test(contentType) || head.status >= 400) return { type: 'failure' };
  if (head.status === 416) return { type: 'restart', reason: 'the part is larger than the resource (416)' };
  if (head.status !== 200 && head.status !== 206) {
    return { type: 'error', error: classify(head.status, undefined, undefined, `unexpected HTTP ${head.status} for a download`) };
  }
  let start = 0;
  let total: number | null = numberHeader(head.headers['content-length']);
  if (head.status === 206) {
    const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(head.headers['content-range'] ?? '');
    if (!m) return { type: 'error', error: new ApiError('retry', 'protocol', 'a 206 answer without a usable Content-Range') };
    start = Number(m[1]);
    total = m[3] === '*' ? null : Number(m[3]);
  }
  const sameObject = o.expectedTotal === null || total === null || total === o.expectedTotal;
  if (start !== o.offset) {
    return { type: 'restart', reason: head.status === 200 ? 'the server ignored the Range (200)' : `the server answered from byte ${start}, asked ${o.offset}` };
  }
  if (o.offset > 0 && !sameObject) return { type: 'restart', reason: 'the resource changed size' };
  return { type: 'body', start, total, fileName: dispositionName(head.headers['content-disposition']), contentType };
}

function failure(head: ResponseHead, text: string): FetchResult {
  const retryAfterMs = parseRetryAfter(head.headers['retry-after']);
  const contentType = head.headers['content-type'] ?? '';
  let parsed: z.infer<ReturnType<typeof envelopeSchema>> | null = null;
  try {
    const env = envelopeSchema(z.unknown()).safeParse(JSON.parse(text));
    if (env.success) parsed = env.data;
  } catch {
    parsed = null;
  }
  if (!parsed) return { type: 'error', error: classify(head.status, undefined, retryAfterMs, `HTTP ${head.status} (${contentType || 'no type'}): ${text.slice(0, 200)}`) };
  if (parsed.msg === API_MESSAGES.resourceMissing) return { type: 'gone', message: parsed.msg };
  if (parsed.code === ENVELOPE_CODES.success && head.status < 300) {
    return { type: 'error', error: new ApiError('fatal', 'protocol', 'a JSON success envelope where a file stream was expected') };
  }
  return { type: 'error', error: classify(head.status, parsed.code, retryAfterMs, parsed.msg) };
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

async function truncatePart(partPath: string): Promise<void> {
  await truncate(partPath, 0).catch((err: unknown) => {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  });
}
