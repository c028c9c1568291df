import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PURGE_JOB, type Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { videoRecord } from '../../datalake/video-record';
import { newestFirst, pageRequest } from '../../datalake/paging';
import { idParam, limitParam, parse } from './parse';

const listQuery = z
  .object({ limit: limitParam(20), cursor: z.string().optional(), collection_id: z.string().max(100).optional() })
  .strict();

export function registerVideos(app: FastifyInstance, dl: Datalake): void {
  app.get('/videos', async (request) => {
    const account = request.account;
    const q = parse(listQuery, request.query);
    const page = dl.videos.list(account.id, q.collection_id, pageRequest(newestFirst, q.limit, q.cursor));
    return { videos: page.rows.map((v) => videoRecord(dl, v)), next_cursor: page.nextCursor };
  });

  app.get('/videos/:id', async (request) => {
    const { id } = parse(idParam, request.params);
    const video = dl.videos.get(request.account.id, id);
    if (!video || video.status === 'cancelled') throw missing('video');
    return videoRecord(dl, video);
  });

  /** 202 with a video_delete operation; its purge stage removes the video, its index, blobs and derived content. */
  app.delete('/videos/:id', async (request, reply) => {
    const account = request.account;
    const { id } = parse(idParam, request.params);
    const video = dl.videos.get(account.id, id);
    if (!video || video.status === 'cancelled') throw missing('video');
    const running = dl.operations.activeFor(id, 'video_delete');
    if (running) return reply.code(202).send(dl.operations.record(running));
    const op = dl.operations.create({ accountId: account.id, kind: 'video_delete', resource: id });
    dl.ctx.jobs.enqueue(PURGE_JOB, op.id, { operationId: op.id }, 3);
    return reply.code(202).send(dl.operations.record(op));
  });
}
