import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Account } from '../../accounts/accounts';
import { parse } from './parse';

export interface DatalakeRouteInput<P, Q, B> {
  account: Account;
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * The declared answer of a datalake route: a type only (interface B's answers have no shared zod schema), so the
 * compiler checks each handler's answer against it, as the library routes' answers are checked against their schema.
 */
export interface Answer<T> {
  readonly type?: T;
}
export const answer = <T>(): Answer<T> => ({});

/**
 * One route of interface B: its request parts as zod schemas (parsed in the order params, query, body; the first
 * problem is a 400 invalid_argument in the datalake error body) and its answer type. The answer is sent as is, with
 * `status` (200 unless said); a handler that answers with another status per call sets it on `reply`. `NoInfer`: the
 * answer type comes from `response` alone, so a handler returning another shape fails to compile (literal fields of
 * an answer are then written `as const`).
 */
export interface DatalakeRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  params?: P;
  query?: Q;
  body?: B;
  status?: 200 | 201 | 202;
  response: Answer<R>;
  handler(input: DatalakeRouteInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<NoInfer<R>>;
}

/** Registers a route that parses its request, calls its handler and sends what it returns. */
export function datalakeRoute<
  R,
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
>(app: FastifyInstance, route: DatalakeRoute<P, Q, B, R>): void {
  app.route({
    method: route.method,
    url: route.url,
    handler: async (request, reply) => {
      const params = route.params ? parse(route.params, request.params) : undefined;
      const query = route.query ? parse(route.query, request.query) : undefined;
      const body = route.body ? parse(route.body, request.body) : undefined;
      if (route.status) void reply.code(route.status);
      // A part without a schema is typed `undefined` (the generic defaults) and is exactly that here.
      return route.handler({
        account: request.account,
        params: params as z.output<P>,
        query: query as z.output<Q>,
        body: body as z.output<B>,
        request,
        reply,
      });
    },
  });
}
