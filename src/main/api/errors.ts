import { ENVELOPE_CODES } from '../../shared/api-types';

/** What the caller should do about a failed call. */
export type Disposition = 'retry' | 'rate-limited' | 'fatal';

/** Why it failed, for messages and for the few cases the engine treats specially (balance, key). */
export type FailureReason =
  'unauthorized' | 'insufficient-balance' | 'rate-limited' | 'validation' | 'server' | 'network' | 'protocol';

export class LibraryApiError extends Error {
  constructor(
    readonly disposition: Disposition,
    readonly reason: FailureReason,
    message: string,
    readonly details: { status?: number; code?: string; retryAfterMs?: number } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LibraryApiError';
  }
}

/** Default wait when a 429 carries no usable Retry-After. */
export const DEFAULT_RETRY_AFTER_MS = 5_000;

/** Retry-After as seconds or an HTTP date -> milliseconds from `now` (never negative); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw.trim()) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The one mapping from an HTTP status and an envelope code to what the caller does.
 * Envelope codes win over the status where both speak (a 200 carrying 0429 is still rate limiting).
 */
export function classify(
  status: number,
  code: string | undefined,
  retryAfterMs: number | undefined,
  msg: string,
): LibraryApiError {
  const details = { status, code, retryAfterMs };
  if (code === ENVELOPE_CODES.unauthorized || status === 401 || status === 403) {
    return new LibraryApiError(
      'fatal',
      'unauthorized',
      `the service refused the API key (${status}${code ? ` ${code}` : ''}): ${msg}`,
      details,
    );
  }
  if (code === ENVELOPE_CODES.insufficientBalance || status === 402) {
    return new LibraryApiError('fatal', 'insufficient-balance', `insufficient balance: ${msg}`, details);
  }
  if (code === ENVELOPE_CODES.rateLimited || status === 429) {
    return new LibraryApiError('rate-limited', 'rate-limited', `rate limited: ${msg}`, {
      ...details,
      retryAfterMs: retryAfterMs ?? DEFAULT_RETRY_AFTER_MS,
    });
  }
  if (status >= 500 || status === 408)
    return new LibraryApiError('retry', 'server', `service error ${status}: ${msg}`, details);
  if (status >= 300 && status < 400)
    return new LibraryApiError('fatal', 'protocol', `redirect refused (${status})`, details);
  return new LibraryApiError('fatal', 'validation', msg || `request rejected (${status})`, details);
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** A thrown transport error (not an HTTP answer) -> LibraryApiError; aborts are passed through untouched. */
export function fromTransportError(err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return err;
  if (err instanceof LibraryApiError) return err;
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) {
      return new LibraryApiError(
        'retry',
        'network',
        `cannot reach the service: ${current.message} (${code})`,
        {},
        { cause: err },
      );
    }
    current = current.cause;
  }
  return new LibraryApiError(
    'retry',
    'network',
    `request failed: ${err instanceof Error ? err.message : String(err)}`,
    {},
    { cause: err },
  );
}
