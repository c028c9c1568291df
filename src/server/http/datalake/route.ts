import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { parsedRoute, type ParsedRouteSpec, type RouteInput } from '../parsed-route';
import { parse } from './parse';

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
export interface DatalakeRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R,
> extends ParsedRouteSpec<P, Q, B> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  status?: 200 | 201 | 202;
  response: Answer<R>;
  handler(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<NoInfer<R>>;
}

/** Registers a route that parses its request, calls its handler and sends what it returns. */
export function datalakeRoute<
  R,
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
>(app: FastifyInstance, route: DatalakeRoute<P, Q, B, R>): void {
  parsedRoute(app, route, parse, async (input) => {
    if (route.status) void input.reply.code(route.status);
    return route.handler(input);
  });
}
