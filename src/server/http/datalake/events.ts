import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../../shared/api-types';
import type { Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { decodeCursor, encodeCursor, idParam, limitParam, parse } from './parse';

const eventsQuery = z
  .object({
    limit: limitParam(50),
    cursor: z.string().optional(),
    /** Media time in seconds: only events starting at or after it. */
    since: z.coerce.number().min(0).optional(),
  })
  .strict();
const eventCursor = z.object({ start: z.number(), seq: z.number().int() });

export function registerEvents(app: FastifyInstance, dl: Datalake): void {
  /** Safety events, oldest first, billed 0.001 USD per call; `live` while the ingest is still running. */
  app.get('/videos/:id/events', async (request) => {
    const account = request.account;
    const { id } = parse(idParam, request.params);
    const q = parse(eventsQuery, request.query);
    const after = decodeCursor(eventCursor, q.cursor);
    const video = dl.videos.get(account.id, id);
    if (!video || video.status === 'cancelled') throw missing('video');
    dl.ctx.billing.charge(account.id, PRICES_MICRO_USD.safetyEventsCall, 'datalake safety events', id);
    const page = dl.events.page(id, q.limit, q.since, after);
    const live = video.status === 'processing' || video.status === 'uploading';
    return { events: page.events, next_cursor: page.more && page.last ? encodeCursor(page.last) : null, live };
  });
}
