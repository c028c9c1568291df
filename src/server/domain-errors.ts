import { API_MESSAGES } from '../shared/api-types';

/** Why the service refuses a request, in its own words: http/ maps each kind to a status and an envelope. */
export type RefusalKind = 'invalid' | 'not-found' | 'rate-limited' | 'insufficient-balance';

/**
 * A refusal thrown by domain code (library, search...), which knows nothing of HTTP: http/envelope.ts `httpErrorOf`
 * turns it into the interface's answer (400, 404, 429 with Retry-After, 402).
 */
export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** For 'rate-limited': when to try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

export const invalidInput = (message: string): Refusal => new Refusal('invalid', message);
export const notFound = (): Refusal => new Refusal('not-found', API_MESSAGES.resourceMissing);
export const rateLimited = (retryAfterSeconds: number, message: string = API_MESSAGES.rateLimited): Refusal =>
  new Refusal('rate-limited', message, retryAfterSeconds);
export const insufficientBalance = (message: string): Refusal => new Refusal('insufficient-balance', message);
