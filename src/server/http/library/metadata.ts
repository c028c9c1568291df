import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../../context';
import { success } from '../envelope';
import { accountOf } from './auth';
import { parseOr400 } from './validate';

const query = z.object({ video_no: z.string().min(1, 'video_no is required').max(100) });

export function registerMetadata(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/get_metadata', async (request) => {
    const account = accountOf(request);
    const { video_no } = parseOr400(query, request.query);
    const row = ctx.videos.byNo(account.id, video_no);
    // Unknown (or another account's) video: success with data null, as the real service answers.
    if (!row) return success(null);
    return success(ctx.videos.metadata(row, ctx.folders.publicId(row.folder_id)));
  });

  app.get('/get_video_transcription', async (request) => {
    const account = accountOf(request);
    const { video_no } = parseOr400(query, request.query);
    const row = ctx.videos.byNo(account.id, video_no);
    if (!row) return success(null);
    const segments = ctx.db
      .prepare(
        "SELECT idx, transcript, start_time, end_time FROM segments WHERE video_id = ? AND transcript != '' ORDER BY idx",
      )
      .all(row.id) as { idx: number; transcript: string; start_time: number; end_time: number }[];
    return success({
      videoNo: row.video_no,
      transcriptions: segments.map((s, index) => ({
        index,
        content: s.transcript,
        startTime: s.start_time,
        endTime: s.end_time,
      })),
    });
  });
}
