/** Error codes that cross process boundaries (IPC, web transport). */
export const ERROR_CODES = [
  'bad_request',
  'unknown_channel',
  'not_found',
  'offline',
  'rate_limited',
  'insufficient_balance',
  'conflict',
  'internal',
  /** A write outside the destinations the user granted (dialog) or allowed (roots), or a system folder. */
  'forbidden',
  /** The destination file exists: nothing was written; ask before replacing, or save under a new name. */
  'file_exists',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorData {
  code: ErrorCode;
  message: string;
}

/** Errors cross the IPC boundary as data, never as thrown exceptions. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorData };

export class AppError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
  }
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

/** For exhaustive switches: `default: throw unreachable(x)`. */
export function unreachable(value: never): Error {
  return new Error(`unreachable: ${JSON.stringify(value)}`);
}

/** Message with its cause chain, for logs and error rows. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (current instanceof Error) {
      parts.push(current.message);
      current = current.cause;
    } else {
      parts.push(typeof current === 'string' ? current : JSON.stringify(current));
      break;
    }
  }
  return parts.join(': caused by: ');
}
