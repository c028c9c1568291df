import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { ENVELOPE_CODES, UPLOAD_LIMITS } from '../../shared/api-types';
import { InsufficientBalanceError } from '../accounts/billing';
import type { ServiceContext } from '../context';
import { ApiError, failure } from './envelope';
import { registerDatalakeRoutes } from './datalake/routes';
import { registerLibraryRoutes } from './library/routes';

/** The HTTP face of the service. Every answer of interface A is an envelope, whatever went wrong. */
export async function buildHttpServer(ctx: ServiceContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 500 },
    requestTimeout: 0,
    return503OnClosing: true,
  });

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

  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (err instanceof ApiError) {
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
    void reply.code(404).send(failure(ENVELOPE_CODES.error, `no such endpoint: ${request.method} ${request.url.split('?')[0]}`));
  });

  registerLibraryRoutes(app, ctx);
  registerDatalakeRoutes(app, ctx);
  return app;
}
