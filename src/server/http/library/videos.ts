import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { listVideosDataSchema, VIDEO_STATUSES } from '../../../shared/api-types';
import type { ServiceContext } from '../../context';
import { deleteVideos } from '../../library/delete-videos';
import { videoMetadata } from '../../library/video-metadata';
import { libraryRoute } from './route';

const listBody = z.object({
  page: z.number().int().min(1).default(1),
  size: z.number().int().min(1).max(100).default(20),
  video_name: z.string().max(500).optional(),
  video_no: z.string().max(100).optional(),
  status: z.enum(VIDEO_STATUSES).optional(),
  folder_id: z.number().int().optional(),
  unique_id: z.string().max(200).optional(),
  tag: z.string().max(100).optional(),
});

const videoNos = z
  .array(z.string().min(1).max(100))
  .min(1, 'give at least one video number')
  .max(100, 'at most 100 video numbers');
/** A bare JSON array of video numbers, or {"video_nos": [...]}. */
const deleteBody = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && 'video_nos' in v ? v.video_nos : v),
  videoNos,
);

export function registerVideos(app: FastifyInstance, ctx: ServiceContext): void {
  libraryRoute(app, {
    method: 'POST',
    url: '/list_videos',
    body: listBody,
    response: listVideosDataSchema,
    handler: async ({ account, body }) => {
      const folderId = await ctx.folders.resolveFilter(account.id, body.folder_id, body.unique_id);
      const { rows, total } = await ctx.videos.list({
        accountId: account.id,
        folderId,
        status: body.status,
        videoName: body.video_name,
        videoNo: body.video_no,
        tag: body.tag,
        page: body.page,
        size: body.size,
      });
      return {
        videos: await videoMetadata(ctx, rows),
        current_page: body.page,
        page_size: body.size,
        total_count: total,
      };
    },
  });

  libraryRoute(app, {
    method: 'POST',
    url: '/delete_videos',
    body: deleteBody,
    response: z.object({ deleted: z.array(z.string()), not_found: z.array(z.string()) }),
    handler: async ({ account, body }) => deleteVideos(ctx, account.id, body),
  });
}
