import type { Logger } from 'pino';
import { z } from 'zod';
import { IMAGE_FORMATS } from './image-header';
import { workerEntry } from '../../../common/spawn-worker';
import { WorkerPool } from '../workers/worker-pool';

export const faceQueryRequestSchema = z.object({
  path: z.string().min(1),
  format: z.enum(IMAGE_FORMATS),
  workDir: z.string().min(1),
});
export type FaceQueryRequest = z.infer<typeof faceQueryRequestSchema>;

/** The worker module: the TypeScript sibling from the sources, the built entry from out/. */
const defaultEntry = (): URL =>
  workerEntry(import.meta.url, { sibling: './face-query-worker.ts' }, { outPath: 'service/face-query-worker.js' });

/**
 * Face descriptors of query photos, computed on one worker thread (started on the first photo search), so detection
 * never holds the HTTP thread. One thread: its models take a few hundred MB, and photo queries are rare.
 */
export class FaceQueryPool extends WorkerPool<FaceQueryRequest, number[][]> {
  constructor(log: Logger, entry: URL = defaultEntry()) {
    super({ name: 'photo query', entry, workers: 1, workerData: null, result: z.array(z.array(z.number())), log });
  }

  async descriptors(request: FaceQueryRequest): Promise<Float32Array[]> {
    return (await this.run(request)).map((d) => Float32Array.from(d));
  }
}
