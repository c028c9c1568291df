import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Account } from '../accounts/accounts';

export interface RouteInput<P, Q, B> {
  account: Account;
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A route's method, path and request parts as zod schemas. */
export interface ParsedRouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  params?: P;
  query?: Q;
  body?: B;
}

/** How an interface turns a request part that fails its schema into its own error (thrown). */
export type PartParser = <T extends z.ZodType>(schema: T, value: unknown) => z.output<T>;

/**
 * Registers a route whose params, query and body are parsed in that order by `parse` (the first problem is thrown,
 * answered by the interface's error handler) before `handle` runs; what `handle` returns is sent.
 */
export function parsedRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, T>(
  app: FastifyInstance,
  spec: ParsedRouteSpec<P, Q, B>,
  parse: PartParser,
  handle: (input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<T>,
): void {
  app.route({
    method: spec.method,
    url: spec.url,
    handler: async (request, reply) => {
      const params = spec.params ? parse(spec.params, request.params) : undefined;
      const query = spec.query ? parse(spec.query, request.query) : undefined;
      const body = spec.body ? parse(spec.body, request.body) : undefined;
      // A part without a schema is typed `undefined` (the routes' generic defaults) and is exactly that here.
      return handle({
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
