import type { FastifyReply } from 'fastify';

/**
 * Runs `work` (slow work after a request's body was read: a probe, a store's completion) while sending
 * `102 Processing` every third of the idle timeout, so the connection is not closed as silent (connectionTimeout in
 * server.ts). HTTP/1.1 clients (curl, undici and fetch, node:http, browsers) skip 1xx answers and wait for the final one.
 */
export async function keepAliveWhile<T>(
  reply: FastifyReply,
  idleTimeoutMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const raw = reply.raw;
  const timer = setInterval(
    () => {
      if (!raw.headersSent && !raw.writableEnded && !raw.destroyed) raw.writeProcessing();
    },
    Math.max(50, Math.floor(idleTimeoutMs / 3)),
  );
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
