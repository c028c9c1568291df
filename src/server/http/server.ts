import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DATALAKE_BASE_PATH, ENVELOPE_CODES, UPLOAD_LIMITS } from '../../shared/api-types';
import { InsufficientBalanceError } from '../accounts/billing';
import type { ServiceContext } from '../context';
import type { Datalake } from '../datalake/datalake';
import { decorateAccount } from './auth';
import { Refusal } from '../domain-errors';
import { HttpError, failure, httpErrorOf } from './envelope';
import { keepRequestsAlive } from './keep-alive';
import { discard } from './multipart-drain';
import { registerDatalakeRoutes } from './datalake/routes';
import { registerLibraryRoutes } from './library/routes';

/** The HTTP face of the service. Every answer of interface A is an envelope, whatever went wrong. */
export async function buildHttpServer(ctx: ServiceContext, datalake: Datalake): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: ctx.config.http.maxJsonBytes,
    routerOptions: { maxParamLength: 500 },
    // Uploads may take hours, so no cap on a whole request; a connection silent for idleTimeoutMs is closed instead
    // (headers sent then nothing, a body that stalls, an idle keep-alive socket).
    requestTimeout: 0,
    connectionTimeout: ctx.config.http.idleTimeoutMs,
    // Longer than clients keep idle sockets pooled (undici 4 s, browsers up to 60 s): with Node's default 5 s, a client
    // whose timers ran late under load wrote its next request onto a socket the service had just closed (EPIPE).
    keepAliveTimeout: Math.min(65_000, ctx.config.http.idleTimeoutMs),
    return503OnClosing: true,
    // Refusals made before routing (a malformed URL, an over-long path parameter) answer in the interface's own shape.
    // The body is read (up to a cap) before answering, so the client sees the answer rather than a reset.
    frameworkErrors: (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      const answer = (): void => {
        if (request.url.startsWith(`${DATALAKE_BASE_PATH}/`))
          void reply
            .code(status)
            .send({ error: { code: status === 404 ? 'not_found' : 'invalid_argument', message: err.message } });
        else void reply.code(status).send(failure(ENVELOPE_CODES.error, err.message));
      };
      const raw = request.raw;
      if (raw.readableEnded) return answer();
      let read = 0;
      raw.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > 2 * ctx.config.http.maxJsonBytes) raw.destroy();
      });
      raw.once('end', answer);
      raw.resume();
    },
  });
  decorateAccount(app);
  keepRequestsAlive(app, ctx.config.http.idleTimeoutMs);
  // Headers trickled a byte at a time keep a socket "active": cap the time to receive them as a whole.
  app.server.headersTimeout = Math.min(60_000, ctx.config.http.idleTimeoutMs);

  await app.register(multipart, {
    limits: {
      fileSize: UPLOAD_LIMITS.maxBytes,
      files: 1,
      fields: 60,
      fieldSize: 64 * 1024,
      parts: 64,
      headerPairs: 200,
    },
  });

  // A refusal made before the handler read the body (auth, a missing upload session, a bad Content-Range) is sent
  // after the rest of the body, up to a cap, so the client sees the answer instead of a reset.
  app.addHook('onError', async (request) => {
    const raw = request.raw;
    if (!raw.readableEnded && !raw.destroyed && raw.listenerCount('data') === 0)
      await discard(raw, { left: 2 * ctx.config.http.maxJsonBytes });
  });

  app.setErrorHandler((thrown: FastifyError | Error, request, reply) => {
    const err = thrown instanceof Refusal ? httpErrorOf(thrown) : thrown;
    if (err instanceof HttpError) {
      void reply.code(err.httpStatus).headers(err.headers).send(failure(err.code, err.message));
      return;
    }
    if (err instanceof InsufficientBalanceError) {
      void reply.code(402).send(failure(ENVELOPE_CODES.insufficientBalance, err.message));
      return;
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own refusals (bad JSON, body too large, wrong content type, multipart limits).
      void reply.code(status).send(failure(ENVELOPE_CODES.error, err.message));
      return;
    }
    ctx.log.error({ err: err.message, stack: err.stack, url: request.url }, 'request failed');
    void reply.code(500).send(failure(ENVELOPE_CODES.error, 'internal error'));
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(failure(ENVELOPE_CODES.error, `no such endpoint: ${request.method} ${request.url.split('?')[0]}`));
  });

  registerLibraryRoutes(app, ctx);
  registerDatalakeRoutes(app, ctx, datalake);
  return app;
}
