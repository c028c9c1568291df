import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Datalake } from '../../datalake/datalake';
import { getMoment, MOMENT_MAX_SECONDS } from '../../datalake/moment';
import type { MomentAnswer } from './answers';
import { idParam } from './parse';
import { answer, datalakeRoute } from './route';

const seconds = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required (seconds)' : 'must be one number of seconds') })
  .trim()
  .min(1, 'is required (seconds)')
  .regex(/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i, 'must be a number of seconds')
  .transform(Number)
  .pipe(z.number({ error: 'must be a number of seconds' }).min(0, 'must be 0 or more'));

const momentQuery = z
  .object({ start: seconds, end: seconds })
  .strict()
  .refine((q) => q.end > q.start, { message: 'must be after start', path: ['end'] })
  .refine((q) => q.end - q.start <= MOMENT_MAX_SECONDS, {
    message: `the slice may be at most ${MOMENT_MAX_SECONDS} s long`,
    path: ['end'],
  });

/** Get Moment (src/server/datalake/moment.ts): the derived content of [start, end) of one video. */
export function registerMoment(app: FastifyInstance, dl: Datalake): void {
  datalakeRoute(app, {
    method: 'GET',
    url: '/videos/:id/moment',
    params: idParam,
    query: momentQuery,
    response: answer<MomentAnswer>(),
    handler: ({ account, params, query }) => getMoment(dl, account.id, params.id, query.start, query.end),
  });
}
