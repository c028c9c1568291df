import { queryFaceDescriptors } from './face-search';
import { faceQueryRequestSchema } from './face-query-pool';
import { serveRequests } from '../workers/worker-protocol';

/**
 * The photo-query worker thread: decodes the query image and runs face detection (human on tfjs-wasm, which holds
 * whichever thread runs it for about a second, and several on first use while the models load). Started by
 * FaceQueryPool; never imported by anything else.
 */
serveRequests(faceQueryRequestSchema, async ({ path, format, workDir }) =>
  (await queryFaceDescriptors({ path, format }, workDir)).map((descriptor) => Array.from(descriptor)),
);
