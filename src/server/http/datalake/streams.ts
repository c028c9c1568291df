import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../../shared/api-types';
import type { Datalake } from '../../datalake/datalake';
import { invalid, missing } from '../../datalake/errors';
import { targetCollection } from '../../datalake/ingest-admission';
import { STREAM_JOB } from '../../datalake/stream-worker';
import { mediaTimeOrder, newestFirst, pageRequest } from '../../datalake/paging';
import type { EventsPage, StreamList, StreamRecord } from './answers';
import { idParam, limitParam } from './parse';
import { answer, datalakeRoute } from './route';

const openBody = z
  .object({
    collection_id: z.string().min(1).max(100),
    source_url: z.string().max(2048),
    fps: z.number().min(0.1).max(30).default(1),
    segment_seconds: z.number().min(2).max(300).default(10),
    metadata: z
      .record(z.string().min(1).max(100), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
      .default({}),
  })
  .strict();
const listQuery = z.object({ limit: limitParam(20), cursor: z.string().optional() }).strict();
const eventsQuery = z
  .object({ limit: limitParam(50), cursor: z.string().optional(), since: z.coerce.number().min(0).optional() })
  .strict();

/** Open Stream: a live pull source, cut into segments that are ingested (indexed, derived) while it plays. */
export function registerStreams(app: FastifyInstance, dl: Datalake): void {
  const find = async (accountId: number, id: string) => {
    const row = await dl.streams.get(accountId, id);
    if (!row) throw missing('stream');
    return row;
  };

  datalakeRoute(app, {
    method: 'POST',
    url: '/streams',
    body: openBody,
    status: 201,
    response: answer<StreamRecord>(),
    handler: async ({ account, body }) => {
      const scheme = URL.canParse(body.source_url) ? new URL(body.source_url).protocol : '';
      if (scheme === 'rtsp:' || scheme === 'rtmp:' || scheme === 'rtmps:')
        throw invalid(
          `${scheme.slice(0, -1)} pull sources are not supported by this service yet; use an http(s) source such as an HLS playlist`,
        );
      if (scheme !== 'http:' && scheme !== 'https:')
        throw invalid('source_url must be an http or https URL (an HLS playlist or another live http source)');
      await targetCollection(dl, account, body.collection_id);
      const row = await dl.streams.create({
        accountId: account.id,
        collectionId: body.collection_id,
        sourceUrl: body.source_url,
        fps: body.fps,
        segmentSeconds: body.segment_seconds,
        metadata: body.metadata,
      });
      await dl.ctx.jobs.enqueue(STREAM_JOB, row.id, { streamId: row.id }, 3);
      return dl.streams.record(row);
    },
  });

  datalakeRoute(app, {
    method: 'GET',
    url: '/streams',
    query: listQuery,
    response: answer<StreamList>(),
    handler: async ({ account, query }) => {
      const page = await dl.streams.list(account.id, pageRequest(newestFirst, query.limit, query.cursor));
      return { streams: await Promise.all(page.rows.map((r) => dl.streams.record(r))), next_cursor: page.nextCursor };
    },
  });

  datalakeRoute(app, {
    method: 'GET',
    url: '/streams/:id',
    params: idParam,
    response: answer<StreamRecord>(),
    handler: async ({ account, params }) => dl.streams.record(await find(account.id, params.id)),
  });

  /** Stops pulling; segments already cut stay (and finish their ingest). */
  datalakeRoute(app, {
    method: 'DELETE',
    url: '/streams/:id',
    params: idParam,
    response: answer<StreamRecord>(),
    handler: async ({ account, params }) => {
      const row = await find(account.id, params.id);
      await dl.streams.setStatus(row.id, 'stopped');
      dl.abort(row.id);
      return dl.streams.record((await dl.streams.byId(row.id)) ?? row);
    },
  });

  /** Safety events of all segments on the stream's timeline; billed like the per-video call; live while pulling or indexing. */
  datalakeRoute(app, {
    method: 'GET',
    url: '/streams/:id/events',
    params: idParam,
    query: eventsQuery,
    response: answer<EventsPage>(),
    handler: async ({ account, params, query }) => {
      const row = await find(account.id, params.id);
      const pageAsked = pageRequest(mediaTimeOrder, query.limit, query.cursor);
      await dl.ctx.billing.charge(
        account.id,
        PRICES_MICRO_USD.safetyEventsCall,
        'datalake stream safety events',
        row.id,
      );
      const page = await dl.events.streamPage(row.id, query.since, pageAsked);
      const live = row.status === 'starting' || row.status === 'live' || (await dl.videos.processingInStream(row.id));
      return { events: page.rows, next_cursor: page.nextCursor, live };
    },
  });
}
