import { z } from 'zod';
import type { JobHandler } from '../jobs/job-queue';
import type { Datalake } from './datalake';

const payloadSchema = z.object({ operationId: z.string() });

/** Purge stage of video_delete and collection_delete operations. Re-running it after a crash finishes what is left. */
export function purgeHandler(dl: Datalake): JobHandler {
  return async (job) => {
    const { operationId } = payloadSchema.parse(JSON.parse(job.payload));
    const op = await dl.operations.byId(operationId);
    if (!op || op.done) return { type: 'finished' };
    await dl.operations.setStage(op.id, 'purge', 'running', 0);
    try {
      switch (op.kind) {
        case 'video_delete': {
          const video = await dl.videos.byId(op.resource);
          if (video) await dl.purgeVideo(video);
          break;
        }
        case 'collection_delete': {
          for (const stream of await dl.streams.activeInCollection(op.resource)) {
            await dl.streams.setStatus(stream.id, 'stopped');
            dl.abort(stream.id);
          }
          const videos = await dl.videos.inCollection(op.resource);
          for (const [i, video] of videos.entries()) {
            await dl.purgeVideo(video);
            await dl.operations.setFraction(op.id, 'purge', (i + 1) / (videos.length + 1));
          }
          await dl.collections.remove(op.resource);
          break;
        }
        case 'ingest':
          throw new Error('an ingest operation has no purge stage');
        default: {
          const never: never = op.kind;
          throw new Error(`unknown operation kind ${String(never)}`);
        }
      }
    } catch (err) {
      if (job.attempts < job.max_attempts)
        return { type: 'retry', error: err instanceof Error ? err.message : String(err) };
      await dl.complete(op.id, {
        code: 'internal',
        message: `purge failed: ${err instanceof Error ? err.message : String(err)}`,
      });
      return { type: 'finished' };
    }
    await dl.complete(op.id, null);
    return { type: 'finished' };
  };
}
