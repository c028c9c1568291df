import type { z } from 'zod';
import { badRequest } from '../envelope';

/** Parses a request part with zod; the first problem becomes the envelope's msg. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    if (issue?.code === 'invalid_type' && issue.message.endsWith('received undefined') && path)
      throw badRequest(`${path} is required`);
    throw badRequest(`${path ? `${path}: ` : ''}${issue?.message ?? 'invalid request'}`);
  }
  return parsed.data;
}
