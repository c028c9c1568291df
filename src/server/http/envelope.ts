import { unreachable } from '../../shared/errors';
import { API_MESSAGES, ENVELOPE_CODES, type Envelope, type EnvelopeCode } from '../../shared/api-types';
import type { Refusal } from '../domain-errors';

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

/** A domain refusal (domain-errors.ts) as the interface answers it. */
export function httpErrorOf(refusal: Refusal): HttpError {
  switch (refusal.kind) {
    case 'invalid':
      return badRequest(refusal.message);
    case 'not-found':
      return new HttpError(404, ENVELOPE_CODES.error, refusal.message);
    case 'rate-limited':
      return new HttpError(429, ENVELOPE_CODES.rateLimited, refusal.message, {
        'retry-after': String(refusal.retryAfterSeconds ?? 1),
      });
    case 'insufficient-balance':
      return new HttpError(402, ENVELOPE_CODES.insufficientBalance, refusal.message);
    default:
      throw unreachable(refusal.kind);
  }
}
