import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { success } from '../envelope';
import { parsedRoute, type ParsedRouteSpec, type RouteInput } from '../parsed-route';
import { parseOr400 } from './validate';

export type { RouteInput } from '../parsed-route';

/**
 * One route of interface A: its request parts as zod schemas (parsed in the order params, query, body; the first
 * problem is answered 400 with the envelope), and its answer as the schema the client parses the envelope's data with
 * (src/shared/api-types.ts). The answer is checked against that schema by the compiler, not re-parsed at run time:
 * parsing would drop fields the schema does not name and cost time on large search answers.
 */
export interface LibraryRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
> extends ParsedRouteSpec<P, Q, B> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
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
  parsedRoute(app, route, parseOr400, async (input) => success(await route.handler(input)));
}
