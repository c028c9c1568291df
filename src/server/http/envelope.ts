import { API_MESSAGES, ENVELOPE_CODES, type Envelope, type EnvelopeCode } from '../../shared/api-types';

/** An error answered as a library envelope with this HTTP status and envelope code. */
export class HttpError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: EnvelopeCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (msg: string): HttpError => new HttpError(400, ENVELOPE_CODES.error, msg);
export const notFound = (): HttpError => new HttpError(404, ENVELOPE_CODES.error, API_MESSAGES.resourceMissing);
export const rateLimited = (retryAfterSeconds: number): HttpError =>
  new HttpError(429, ENVELOPE_CODES.rateLimited, API_MESSAGES.rateLimited, {
    'retry-after': String(retryAfterSeconds),
  });

export function success<T>(data: T): Envelope<T> {
  return { code: ENVELOPE_CODES.success, msg: API_MESSAGES.success, data, success: true, failed: false };
}

export function failure(code: EnvelopeCode, msg: string): Envelope<null> {
  return { code, msg, data: null, success: false, failed: true };
}
