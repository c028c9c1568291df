import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRICES_MICRO_USD } from '../../../shared/api-types';
import type { Datalake } from '../../datalake/datalake';
import { invalid, missing } from '../../datalake/errors';
import { targetCollection } from '../../datalake/ingest-admission';
import { STREAM_JOB } from '../../datalake/stream-worker';
import { mediaTimeOrder, newestFirst, pageRequest } from '../../datalake/paging';
import { idParam, limitParam, parse } from './parse';

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
  const find = (accountId: number, params: unknown) => {
    const { id } = parse(idParam, params);
    const row = dl.streams.get(accountId, id);
    if (!row) throw missing('stream');
    return row;
  };

  app.post('/streams', async (request, reply) => {
    const account = request.account;
    const body = parse(openBody, request.body);
    const scheme = URL.canParse(body.source_url) ? new URL(body.source_url).protocol : '';
    if (scheme === 'rtsp:' || scheme === 'rtmp:' || scheme === 'rtmps:')
      throw invalid(
        `${scheme.slice(0, -1)} pull sources are not supported by this service yet; use an http(s) source such as an HLS playlist`,
      );
    if (scheme !== 'http:' && scheme !== 'https:')
      throw invalid('source_url must be an http or https URL (an HLS playlist or another live http source)');
    targetCollection(dl, account, body.collection_id);
    const row = dl.streams.create({
      accountId: account.id,
      collectionId: body.collection_id,
      sourceUrl: body.source_url,
      fps: body.fps,
      segmentSeconds: body.segment_seconds,
      metadata: body.metadata,
    });
    dl.ctx.jobs.enqueue(STREAM_JOB, row.id, { streamId: row.id }, 3);
    return reply.code(201).send(dl.streams.record(row));
  });

  app.get('/streams', async (request) => {
    const q = parse(listQuery, request.query);
    const page = dl.streams.list(request.account.id, pageRequest(newestFirst, q.limit, q.cursor));
    return { streams: page.rows.map((r) => dl.streams.record(r)), next_cursor: page.nextCursor };
  });

  app.get('/streams/:id', async (request) => dl.streams.record(find(request.account.id, request.params)));

  /** Stops pulling; segments already cut stay (and finish their ingest). */
  app.delete('/streams/:id', async (request) => {
    const row = find(request.account.id, request.params);
    dl.streams.setStatus(row.id, 'stopped');
    dl.abort(row.id);
    return dl.streams.record(dl.streams.byId(row.id) ?? row);
  });

  /** Safety events of all segments on the stream's timeline; billed like the per-video call; live while pulling or indexing. */
  app.get('/streams/:id/events', async (request) => {
    const account = request.account;
    const row = find(account.id, request.params);
    const q = parse(eventsQuery, request.query);
    const pageAsked = pageRequest(mediaTimeOrder, q.limit, q.cursor);
    dl.ctx.billing.charge(account.id, PRICES_MICRO_USD.safetyEventsCall, 'datalake stream safety events', row.id);
    const page = dl.events.streamPage(row.id, q.since, pageAsked);
    const live = row.status === 'starting' || row.status === 'live' || dl.videos.processingInStream(row.id);
    return { events: page.rows, next_cursor: page.nextCursor, live };
  });
}
