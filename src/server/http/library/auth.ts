import type { FastifyRequest } from 'fastify';
import { ENVELOPE_CODES } from '../../../shared/api-types';
import type { Account, Accounts, KeyInterface } from '../../accounts/accounts';
import { ApiError } from '../envelope';

const accountKey = Symbol('account');
type WithAccount = FastifyRequest & { [accountKey]?: Account };

/** Hook: the Authorization header is the raw key (no Bearer) of the wanted interface's kind. */
export function authenticate(accounts: Accounts, kind: KeyInterface) {
  return async (request: FastifyRequest): Promise<void> => {
    const header: unknown = request.headers.authorization;
    const key = typeof header === 'string' ? header : undefined;
    if (!key) throw new ApiError(401, ENVELOPE_CODES.unauthorized, 'Authorization header with the API key is required');
    const account = accounts.authenticate(key.trim(), kind);
    if (!account) throw new ApiError(401, ENVELOPE_CODES.unauthorized, `invalid API key for the ${kind} interface`);
    (request as WithAccount)[accountKey] = account;
  };
}

export function accountOf(request: FastifyRequest): Account {
  const account = (request as WithAccount)[accountKey];
  if (!account) throw new ApiError(401, ENVELOPE_CODES.unauthorized, 'not authenticated');
  return account;
}
