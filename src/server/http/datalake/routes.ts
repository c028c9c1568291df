import type { FastifyError, FastifyInstance } from 'fastify';
import { DATALAKE_BASE_PATH } from '../../../shared/api-types';
import { InsufficientBalanceError } from '../../accounts/billing';
import type { ServiceContext } from '../../context';
import type { Datalake } from '../../datalake/datalake';
import { DatalakeError, type DatalakeErrorCode } from '../../datalake/errors';
import { Refusal } from '../../domain-errors';
import { HttpError, httpErrorOf } from '../envelope';
import { authenticate } from '../auth';
import { registerCollections } from './collections';
import { registerEvents } from './events';
import { registerIngest } from './ingest';
import { registerMoment } from './moment';
import { registerOperations } from './operations';
import { registerResumable } from './resumable';
import { registerSearch } from './search';
import { registerStreams } from './streams';
import { registerUsage } from './usage';
import { registerVideos } from './videos';

const byStatus: Record<number, DatalakeErrorCode> = {
  401: 'unauthenticated',
  402: 'insufficient_balance',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media',
  429: 'rate_limited',
};

/** Interface B under /serve/datalake/v1: its own key kind and its own error body, {error: {code, message}}. */
export function registerDatalakeRoutes(app: FastifyInstance, ctx: ServiceContext, dl: Datalake): void {
  void app.register(
    (scope, _opts, done) => {
      // Chunk uploads and other bodies that are not JSON or multipart reach their handler unread.
      scope.addContentTypeParser('*', (_request, _payload, next) => next(null, undefined));
      scope.addHook('preHandler', authenticate(ctx.accounts, 'datalake'));
      scope.setErrorHandler((thrown: FastifyError | Error, request, reply) => {
        const err = thrown instanceof Refusal ? httpErrorOf(thrown) : thrown;
        const send = (
          status: number,
          code: DatalakeErrorCode,
          message: string,
          headers: Record<string, string> = {},
          details = {},
        ): void => {
          void reply
            .code(status)
            .headers(headers)
            .send({ error: { code, message, ...details } });
        };
        if (err instanceof DatalakeError) return send(err.httpStatus, err.code, err.message, err.headers, err.details);
        if (err instanceof HttpError)
          return send(err.httpStatus, byStatus[err.httpStatus] ?? 'invalid_argument', err.message, err.headers);
        if (err instanceof InsufficientBalanceError) return send(402, 'insufficient_balance', err.message);
        const status = (err as FastifyError).statusCode;
        if (status && status >= 400 && status < 500)
          return send(status, byStatus[status] ?? 'invalid_argument', err.message);
        ctx.log.error({ err: err.message, stack: err.stack, url: request.url }, 'datalake request failed');
        return send(500, 'internal', 'internal error');
      });
      scope.setNotFoundHandler((request, reply) => {
        void reply.code(404).send({
          error: { code: 'not_found', message: `no such endpoint: ${request.method} ${request.url.split('?')[0]}` },
        });
      });
      registerCollections(scope, dl);
      registerIngest(scope, dl);
      registerResumable(scope, dl);
      registerVideos(scope, dl);
      registerOperations(scope, dl);
      registerEvents(scope, dl);
      registerMoment(scope, dl);
      registerSearch(scope, dl);
      registerStreams(scope, dl);
      registerUsage(scope, dl);
      done();
    },
    { prefix: DATALAKE_BASE_PATH },
  );
}
