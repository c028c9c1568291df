import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Datalake } from '../../datalake/datalake';
import { missing } from '../../datalake/errors';
import { newestFirst, pageRequest } from '../../datalake/paging';
import { requestVideoDelete } from '../../datalake/purge-requests';
import { videoRecord } from '../../datalake/video-record';
import type { OperationRecord, VideoList, VideoRecord } from './answers';
import { idParam, limitParam } from './parse';
import { answer, datalakeRoute } from './route';

const listQuery = z
  .object({ limit: limitParam(20), cursor: z.string().optional(), collection_id: z.string().max(100).optional() })
  .strict();

export function registerVideos(app: FastifyInstance, dl: Datalake): void {
  datalakeRoute(app, {
    method: 'GET',
    url: '/videos',
    query: listQuery,
    response: answer<VideoList>(),
    handler: async ({ account, query }) => {
      const page = await dl.videos.list(
        account.id,
        query.collection_id,
        pageRequest(newestFirst, query.limit, query.cursor),
      );
      return { videos: await Promise.all(page.rows.map((v) => videoRecord(dl, v))), next_cursor: page.nextCursor };
    },
  });

  datalakeRoute(app, {
    method: 'GET',
    url: '/videos/:id',
    params: idParam,
    response: answer<VideoRecord>(),
    handler: async ({ account, params }) => {
      const video = await dl.videos.get(account.id, params.id);
      if (!video || video.status === 'cancelled') throw missing('video');
      return videoRecord(dl, video);
    },
  });

  /** 202 with a video_delete operation; its purge stage removes the video, its index, blobs and derived content. */
  datalakeRoute(app, {
    method: 'DELETE',
    url: '/videos/:id',
    params: idParam,
    status: 202,
    response: answer<OperationRecord>(),
    handler: async ({ account, params }) => dl.operations.record(await requestVideoDelete(dl, account.id, params.id)),
  });
}
