import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../../shared/api-types';
import type { Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { mediaTimeOrder, pageRequest } from '../../datalake/paging';
import type { EventsPage } from './answers';
import { idParam, limitParam } from './parse';
import { answer, datalakeRoute } from './route';

const eventsQuery = z
  .object({
    limit: limitParam(50),
    cursor: z.string().optional(),
    /** Media time in seconds: only events starting at or after it. */
    since: z.coerce.number().min(0).optional(),
  })
  .strict();

export function registerEvents(app: FastifyInstance, dl: Datalake): void {
  /** Safety events, oldest first, billed 0.001 USD per call; `live` while the ingest is still running. */
  datalakeRoute(app, {
    method: 'GET',
    url: '/videos/:id/events',
    params: idParam,
    query: eventsQuery,
    response: answer<EventsPage>(),
    handler: async ({ account, params: { id }, query }) => {
      const pageAsked = pageRequest(mediaTimeOrder, query.limit, query.cursor);
      const video = await dl.videos.get(account.id, id);
      if (!video || video.status === 'cancelled') throw missing('video');
      await dl.ctx.billing.charge(account.id, PRICES_MICRO_USD.safetyEventsCall, 'datalake safety events', id);
      const page = await dl.events.page(id, query.since, pageAsked);
      const live = video.status === 'processing' || video.status === 'uploading';
      return { events: page.rows, next_cursor: page.nextCursor, live };
    },
  });
}
