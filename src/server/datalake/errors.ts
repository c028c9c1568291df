/** Error codes of interface B, on HTTP answers ({error: {code, message}}) and on failed operations. */
export const DATALAKE_ERROR_CODES = [
  'invalid_argument',
  'unauthenticated',
  'insufficient_balance',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media',
  'rate_limited',
  'internal',
  // operation errors
  'source_unresolved',
  'media_too_large',
  'index_failed',
  'partial_failure',
  'video_deleted',
] as const;
export type DatalakeErrorCode = (typeof DATALAKE_ERROR_CODES)[number];

/** An error of interface B answered with this HTTP status. */
export class DatalakeError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: DatalakeErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DatalakeError';
  }
}

export const invalid = (message: string): DatalakeError => new DatalakeError(400, 'invalid_argument', message);
export const missing = (what: string): DatalakeError => new DatalakeError(404, 'not_found', `${what} not found`);
export const conflict = (message: string, details: Record<string, unknown> = {}): DatalakeError =>
  new DatalakeError(409, 'conflict', message, {}, details);
