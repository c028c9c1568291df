import type { FastifyInstance } from 'fastify';

/**
 * Every request whose body was read whole but not yet answered gets `102 Processing` every third of the idle timeout,
 * so slow work after the body (a probe, a store's completion, a model loading for a photo search, a moment cut) never
 * leaves the connection silent long enough to be closed (connectionTimeout in server.ts). HTTP/1.1 clients (curl,
 * undici and fetch, node:http, browsers) skip 1xx answers and wait for the final one; HTTP/1.0 gets none (RFC 9110).
 * While the body arrives its own bytes keep the socket alive; once the answer's headers are out, its body does.
 */
export function keepRequestsAlive(app: FastifyInstance, idleTimeoutMs: number): void {
  const everyMs = Math.max(50, Math.floor(idleTimeoutMs / 3));
  app.addHook('onRequest', (request, reply, done) => {
    const req = request.raw;
    const res = reply.raw;
    if (req.httpVersionMajor !== 1 || req.httpVersionMinor < 1) return done();
    const timer = setInterval(() => {
      if (req.complete && !res.headersSent && !res.writableEnded && !res.destroyed) res.writeProcessing();
    }, everyMs);
    const stop = (): void => clearInterval(timer);
    res.once('finish', stop);
    res.once('close', stop);
    done();
  });
}
