import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PURGE_JOB, type Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { videoRecord } from '../../datalake/video-record';
import { decodeCursor, encodeCursor, idParam, limitParam, parse, timeCursor } from './parse';

const listQuery = z
  .object({ limit: limitParam(20), cursor: z.string().optional(), collection_id: z.string().max(100).optional() })
  .strict();

export function registerVideos(app: FastifyInstance, dl: Datalake): void {
  app.get('/videos', async (request) => {
    const account = request.account;
    const q = parse(listQuery, request.query);
    const rows = dl.videos.list(account.id, q.limit + 1, q.collection_id, decodeCursor(timeCursor, q.cursor));
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return {
      videos: page.map((v) => videoRecord(dl, v)),
      next_cursor: rows.length > q.limit && last ? encodeCursor({ t: last.created_at, id: last.id }) : null,
    };
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
