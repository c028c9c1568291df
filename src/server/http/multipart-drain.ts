import type { Multipart } from '@fastify/multipart';
import type { Readable } from 'node:stream';
import { badRequest, type HttpError } from './envelope';

/*
 * When a multipart request is refused part-way, the answer goes out after the rest of the body has been read, as
 * HTTP clients expect (closing on unread data makes them see a reset instead of the answer). Past a cap the
 * connection is closed instead of reading gigabytes we refuse.
 */
export const DRAIN_CAP = 64 * 1024 * 1024;

/** Reads and drops a refused file part, up to the cap; false when it was larger. */
export async function discard(stream: Readable, budget = { left: DRAIN_CAP }): Promise<boolean> {
  try {
    for await (const chunk of stream) {
      budget.left -= (chunk as Buffer).length;
      if (budget.left < 0) {
        stream.destroy();
        return false;
      }
    }
    return true;
  } catch {
    return false; // a truncated part: the refusal stands, the connection closes
  }
}

/** Consumes what is left of a refused multipart request; false when more than the cap remained. */
export async function drainParts(parts: AsyncIterator<Multipart>): Promise<boolean> {
  const budget = { left: DRAIN_CAP };
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      if (next.value.type === 'file' && !(await discard(next.value.file, budget))) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** The next part of a multipart body; a malformed body (bad boundary, truncated part) is the client's error. */
export async function nextPart(parts: AsyncIterator<Multipart>): Promise<IteratorResult<Multipart>> {
  try {
    return await parts.next();
  } catch (err) {
    throw malformed(err);
  }
}

export function malformed(err: unknown): HttpError {
  return badRequest(`malformed multipart body: ${err instanceof Error ? err.message : String(err)}`);
}
