import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { metadataSchema, transcriptionSchema } from '../../../shared/api-types';
import type { ServiceContext } from '../../context';
import { videoMetadata } from '../../library/video-metadata';
import { libraryRoute } from './route';

const videoNoQuery = z.object({ video_no: z.string().min(1, 'video_no is required').max(100) });

export function registerMetadata(app: FastifyInstance, ctx: ServiceContext): void {
  libraryRoute(app, {
    method: 'GET',
    url: '/get_metadata',
    query: videoNoQuery,
    response: metadataSchema.nullable(),
    handler: async ({ account, query }) => {
      const row = await ctx.videos.byNo(account.id, query.video_no);
      // Unknown (or another account's) video: success with data null, as the real service answers.
      return row ? ((await videoMetadata(ctx, [row]))[0] ?? null) : null;
    },
  });

  libraryRoute(app, {
    method: 'GET',
    url: '/get_video_transcription',
    query: videoNoQuery,
    response: transcriptionSchema.nullable(),
    handler: async ({ account, query }) => {
      const row = await ctx.videos.byNo(account.id, query.video_no);
      if (!row) return null;
      return {
        videoNo: row.video_no,
        transcriptions: (await ctx.videoIndex.transcript(row.id)).map((s, index) => ({
          index,
          content: s.transcript,
          startTime: s.start_time,
          endTime: s.end_time,
        })),
      };
    },
  });
}
