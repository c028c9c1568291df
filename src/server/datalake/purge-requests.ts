import { PURGE_JOB, type Datalake } from './datalake';
import { missing } from './errors';
import type { OperationRow } from './operations';

/** Starts (or returns the running) collection_delete operation, whose purge stage removes every video of it. */
export async function requestCollectionDelete(dl: Datalake, accountId: number, id: string): Promise<OperationRow> {
  if (!(await dl.collections.get(accountId, id))) throw missing('collection');
  const running = await dl.operations.activeFor(id, 'collection_delete');
  if (running) return running;
  const op = await dl.operations.create({ accountId, kind: 'collection_delete', resource: id });
  await dl.collections.markDeleting(id);
  await dl.ctx.jobs.enqueue(PURGE_JOB, op.id, { operationId: op.id }, 3);
  return op;
}

/** Starts (or returns the running) video_delete operation; its purge removes the video, index, blobs and derived content. */
export async function requestVideoDelete(dl: Datalake, accountId: number, id: string): Promise<OperationRow> {
  const video = await dl.videos.get(accountId, id);
  if (!video || video.status === 'cancelled') throw missing('video');
  const running = await dl.operations.activeFor(id, 'video_delete');
  if (running) return running;
  const op = await dl.operations.create({ accountId, kind: 'video_delete', resource: id });
  await dl.ctx.jobs.enqueue(PURGE_JOB, op.id, { operationId: op.id }, 3);
  return op;
}
