import { z } from 'zod';
import type { ServiceContext } from '../context';
import { INDEX_RULES_VERSION } from '../indexer/index-rules';
import type { JobOutcome } from '../../shared/job-outcome';
import { countOf, optionalRow } from '../storage/rows';
import { analyzeStored, type Analyze } from './analyze-stored';
import { logAnalyzerFailures } from './index-worker';
import type { JobHandler, JobRow } from './job-queue';
import { persistIndex } from './persist-index';

export const reindexPayloadSchema = z.object({ videoId: z.number().int(), rules: z.string() });
const stampRow = z.object({ index_rules: z.string().nullable() });

/**
 * Re-index job: analyze an indexed (PARSE) video's kept original again and replace its index with what the current
 * rules write, in one transaction (persistIndex with a generation of its own: the old keyframes stay until then). The
 * video stays PARSE throughout, its callback is not sent again, and nothing is charged: it is the service's own
 * upgrade. A re-index that fails leaves the old index as it was.
 */
export function reindexHandler(ctx: ServiceContext, analyze: Analyze): JobHandler {
  return async (job, signal, lease) => {
    const { videoId, rules } = reindexPayloadSchema.parse(JSON.parse(job.payload));
    const row = await ctx.videos.byId(videoId);
    // Deleted, or not indexed, meanwhile; or queued by a build with other rules than this one's.
    if (!row || row.status !== 'PARSE' || rules !== INDEX_RULES_VERSION) return { type: 'finished' };
    const was = optionalRow(stampRow, await ctx.sql.get('SELECT index_rules FROM videos WHERE id = ?', videoId));
    if (was?.index_rules === INDEX_RULES_VERSION) return { type: 'finished' };
    const generation = `r${job.id}-${job.attempts}`;
    let committed = false;
    try {
      return await analyzeStored(ctx, row, analyze, signal, {
        persist: async (result) => {
          if (!(await ctx.videos.byId(videoId))) return { type: 'finished' };
          const before = await segmentCount(ctx, videoId);
          await persistIndex(ctx, row, result, (tx) => lease.hold(tx), generation);
          committed = true;
          void ctx.semantic.embedPending();
          ctx.log.info(
            {
              videoNo: row.video_no,
              rules: INDEX_RULES_VERSION,
              was: was?.index_rules ?? null,
              segmentsBefore: before,
              segments: result.segments.length,
            },
            're-indexed under the current index rules',
          );
          logAnalyzerFailures(ctx, row, result.failures);
          return { type: 'finished' };
        },
      });
    } finally {
      // Keyframes this attempt stored beside the old index, unused: its generation is its own (job and attempt).
      if (!committed) {
        await ctx.blobs.deletePrefix(row.bucket, `keyframes/${row.video_no}/${generation}`).catch(() => {});
        await ctx.blobs.delete(row.bucket, `posters/${row.video_no}/${generation}.jpg`).catch(() => {});
      }
    }
  };
}

async function segmentCount(ctx: ServiceContext, videoId: number): Promise<number> {
  return countOf(await ctx.sql.get('SELECT COUNT(*) AS n FROM segments WHERE video_id = ?', videoId));
}

/** When a re-index ends without success: the old index stays, and the log says why. */
export function logReindexSettled(ctx: ServiceContext, job: JobRow, outcome: JobOutcome): void {
  if (outcome.type !== 'failed') return;
  ctx.log.warn(
    { job: job.id, ref: job.ref, err: outcome.error },
    're-index failed: the video keeps its old index (not tried again under these rules)',
  );
}
