import { z } from 'zod';
import { DatalakeError, invalid } from '../../datalake/errors';

/** Validates a request part with zod; the first problem becomes a 400 invalid_argument. */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  if (issue?.code === 'unrecognized_keys') throw invalid(`unknown field ${issue.keys.join(', ')}`);
  throw invalid(`${path ? `${path}: ` : ''}${issue?.message ?? 'invalid request'}`);
}

/**
 * decodeURIComponent without the URIError (a 500) on a malformed escape (`%zz`) or bytes that are not UTF-8 (`%ff`):
 * null instead. Every percent-decoding of request data in the service goes through here.
 */
export function tryDecodePercent(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** List limits are 1 to 100 on every datalake list call. */
export const limitParam = (fallback: number) => z.coerce.number().int().min(1).max(100).default(fallback);

export const idParam = z.object({ id: z.string().min(1).max(200) });

/** The `{id}:verb` path segment of an action route, split by `actionTarget`. */
export const targetParam = z.object({ target: z.string().max(300) });

export { conflict } from '../../datalake/errors';

/**
 * `{id}:verb` action paths (POST /operations/{id}:cancel). The router cannot put a literal colon after a parameter, so
 * the whole segment is one parameter split here; another verb is a 404 like any unknown path.
 */
export function actionTarget(params: unknown, verb: string): string {
  const { target } = parse(targetParam, params);
  const suffix = `:${verb}`;
  if (!target.endsWith(suffix) || target.length === suffix.length)
    throw new DatalakeError(404, 'not_found', `no such action; expected {id}${suffix}`);
  return target.slice(0, -suffix.length);
}
