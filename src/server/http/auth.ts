import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENVELOPE_CODES } from '../../shared/api-types';
import type { Account, Accounts, KeyInterface } from '../accounts/accounts';
import { HttpError } from './envelope';

const ACCOUNT: unique symbol = Symbol('account');

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of the request's API key: set by the `authenticate` hook of each interface's scope. */
    account: Account;
    [ACCOUNT]: Account | null;
  }
}

/**
 * Declares `request.account` once for the whole server. Read on a route outside an authenticated scope (a wiring
 * mistake), it refuses with 401 rather than handing out an empty account.
 */
export function decorateAccount(app: FastifyInstance): void {
  app.decorateRequest(ACCOUNT, null);
  app.decorateRequest('account', {
    getter(this: FastifyRequest): Account {
      const account = this[ACCOUNT];
      if (!account) throw new HttpError(401, ENVELOPE_CODES.unauthorized, 'not authenticated');
      return account;
    },
    setter(this: FastifyRequest, account: Account) {
      this[ACCOUNT] = account;
    },
  });
}

/** Hook: the Authorization header is the raw key (no Bearer) of the wanted interface's kind. */
export function authenticate(accounts: Accounts, kind: KeyInterface) {
  return async (request: FastifyRequest): Promise<void> => {
    const header: unknown = request.headers.authorization;
    const key = typeof header === 'string' ? header : undefined;
    if (!key)
      throw new HttpError(401, ENVELOPE_CODES.unauthorized, 'Authorization header with the API key is required');
    const account = await accounts.authenticate(key.trim(), kind);
    if (!account) throw new HttpError(401, ENVELOPE_CODES.unauthorized, `invalid API key for the ${kind} interface`);
    request.account = account;
  };
}
