import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Account } from '../../accounts/accounts';
import { success } from '../envelope';
import { parseOr400 } from './validate';

export interface RouteInput<P, Q, B> {
  account: Account;
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One route of interface A: its request parts as zod schemas (parsed in the order params, query, body; the first
 * problem is answered 400 with the envelope), and its answer as the schema the client parses the envelope's data with
 * (src/shared/api-types.ts). The answer is checked against that schema by the compiler, not re-parsed at run time:
 * parsing would drop fields the schema does not name and cost time on large search answers.
 */
export interface LibraryRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  handler(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<z.output<R>>;
}

/** Registers a route that parses its request, calls its handler and answers `success(data)`. */
export function libraryRoute<
  R extends z.ZodType,
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
>(app: FastifyInstance, route: LibraryRoute<P, Q, B, R>): void {
  app.route({
    method: route.method,
    url: route.url,
    handler: async (request, reply) => {
      const params = route.params ? parseOr400(route.params, request.params) : undefined;
      const query = route.query ? parseOr400(route.query, request.query) : undefined;
      const body = route.body ? parseOr400(route.body, request.body) : undefined;
      // A part without a schema is typed `undefined` (the generic defaults) and is exactly that here.
      const data = await route.handler({
        account: request.account,
        params: params as z.output<P>,
        query: query as z.output<Q>,
        body: body as z.output<B>,
        request,
        reply,
      });
      return success(data);
    },
  });
}
