import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { VIDEO_STATUSES } from '../../../shared/api-types';
import type { ServiceContext } from '../../context';
import { success } from '../envelope';
import { accountOf } from './auth';
import { parseOr400 } from './validate';

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
  app.post('/list_videos', async (request) => {
    const account = accountOf(request);
    const body = parseOr400(listBody, request.body);
    const folderId = ctx.folders.resolveFilter(account.id, body.folder_id, body.unique_id);
    const { rows, total } = ctx.videos.list({
      accountId: account.id,
      folderId,
      status: body.status,
      videoName: body.video_name,
      videoNo: body.video_no,
      tag: body.tag,
      page: body.page,
      size: body.size,
    });
    return success({
      videos: rows.map((r) => ctx.videos.metadata(r, ctx.folders.publicId(r.folder_id))),
      current_page: body.page,
      page_size: body.size,
      total_count: total,
    });
  });

  app.post('/delete_videos', async (request) => {
    const account = accountOf(request);
    const nos = parseOr400(deleteBody, request.body);
    const deleted: string[] = [];
    const notFound: string[] = [];
    for (const no of new Set(nos)) {
      const row = ctx.videos.byNo(account.id, no);
      if (!row) {
        notFound.push(no);
        continue;
      }
      ctx.videos.delete(row.id);
      await ctx.blobs.deletePrefix(row.bucket, `videos/${no}`);
      await ctx.blobs.deletePrefix(row.bucket, `keyframes/${no}`);
      await ctx.blobs.deletePrefix(row.bucket, `posters/${no}`);
      deleted.push(no);
    }
    return success({ deleted, not_found: notFound });
  });
}
