import { truncate } from 'node:fs/promises';
import { z } from 'zod';
import { API_MESSAGES, ENVELOPE_CODES, envelopeSchema } from '../../shared/api-types';
import type { Logger } from '../log';
import { LibraryApiError, classify, fromTransportError, parseRetryAfter } from './errors';
import { DownloadThread, type ThreadResult } from './download-thread';
import type { ResponseHead } from './response-head';

export interface BlobDownloaderOptions {
  /** Base address including /serve/api/v1. */
  baseUrl: string;
  key: string;
  logger: Logger;
  /** Extra certificate authority (PEM) to trust for an https service (a team server with its own CA). */
  ca?: string;
  /** No bytes for this long: the connection is given up (and the download retried). */
  idleTimeoutMs?: number;
}

/** How one GET /download ended. Transport failures mid-body are not results: they throw (the part file keeps its bytes). */
export type FetchResult =
  | {
      type: 'complete';
      bytes: number;
      total: number | null;
      fileName: string | null;
      contentType: string;
      resumed: boolean;
    }
  /** The server ignored the Range (200) or the part no longer fits (416, other start): the part was truncated; fetch again. */
  | { type: 'restart'; reason: string }
  /** "Resource does not exist": the bucket/blob is gone (deleted video, wrong address). Never retried. */
  | { type: 'gone'; message: string }
  | { type: 'error'; error: LibraryApiError };

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

/**
 * Streaming GET {base}/download?bucket=&blob= into a part file (see raw-get.ts for why not undici), resuming with one Range. Success and failure are told
 * apart by the Content-Type (the contract's JSON envelope instead of a stream), then by the status. Statuses and codes
 * map to retry / rate-limited / fatal through `classify`; "Resource does not exist" becomes `gone`.
 */
export class BlobDownloader {
  private readonly base: string;
  private readonly idleMs: number;
  private readonly log: Logger;
  private readonly thread = new DownloadThread();

  constructor(private readonly o: BlobDownloaderOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.idleMs = o.idleTimeoutMs ?? 120_000;
    this.log = o.logger.child({ module: 'download' });
  }

  /** Stops the download thread (each download is one connection of its own, closed when it ends). */
  async close(): Promise<void> {
    await this.thread.close();
  }

  url(bucket: string, blob: string): string {
    // Reserved characters encoded, the path's slashes kept (the contract's rule for blob).
    const encodedBlob = blob.split('/').map(encodeURIComponent).join('/');
    return `${this.base}/download?bucket=${encodeURIComponent(bucket)}&blob=${encodedBlob}`;
  }

  async fetchTo(bucket: string, blob: string, partPath: string, o: FetchOptions): Promise<FetchResult> {
    let res: ThreadResult;
    try {
      res = await this.thread.fetch(
        {
          url: this.url(bucket, blob),
          headers: {
            authorization: this.o.key,
            range: `bytes=${o.offset}-`,
            'accept-encoding': 'identity',
            'user-agent': 'reelsync',
          },
          idleTimeoutMs: this.idleMs,
          ca: this.o.ca,
          partPath,
          offset: o.offset,
          expectedTotal: o.expectedTotal,
        },
        {
          signal: o.signal,
          onHead: (v) => {
            if (v.type === 'body') o.onStart?.({ offset: v.start, total: v.total, fileName: v.fileName });
          },
          onBytes: o.onBytes,
        },
      );
    } catch (err) {
      this.log.debug({ bucket, blob, err: String(err) }, 'download interrupted');
      throw fromTransportError(err, o.signal);
    }
    const { verdict } = res;
    switch (verdict.type) {
      case 'failure':
        return failure(res.head, res.text ?? '');
      case 'restart':
        // Not the continuation we asked for: keep nothing, start clean next time.
        await truncatePart(partPath);
        return { type: 'restart', reason: verdict.reason };
      case 'unexpected-status':
        return {
          type: 'error',
          error: classify(verdict.status, undefined, undefined, `unexpected HTTP ${verdict.status} for a download`),
        };
      case 'bad-content-range':
        return {
          type: 'error',
          error: new LibraryApiError('retry', 'protocol', 'a 206 answer without a usable Content-Range'),
        };
      case 'body':
        return {
          type: 'complete',
          bytes: verdict.start + res.bytes,
          total: verdict.total,
          fileName: verdict.fileName,
          contentType: verdict.contentType,
          resumed: verdict.start > 0,
        };
    }
  }
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
  if (!parsed)
    return {
      type: 'error',
      error: classify(
        head.status,
        undefined,
        retryAfterMs,
        `HTTP ${head.status} (${contentType || 'no type'}): ${text.slice(0, 200)}`,
      ),
    };
  if (parsed.msg === API_MESSAGES.resourceMissing) return { type: 'gone', message: parsed.msg };
  if (parsed.code === ENVELOPE_CODES.success && head.status < 300) {
    return {
      type: 'error',
      error: new LibraryApiError('fatal', 'protocol', 'a JSON success envelope where a file stream was expected'),
    };
  }
  return { type: 'error', error: classify(head.status, parsed.code, retryAfterMs, parsed.msg) };
}

async function truncatePart(partPath: string): Promise<void> {
  await truncate(partPath, 0).catch((err: unknown) => {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  });
}
