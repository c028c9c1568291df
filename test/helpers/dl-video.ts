import type { NewDlVideo } from '../../src/server/datalake/dl-videos';

/** A datalake video from an uploaded file, being processed: the row a multipart `POST /videos` creates. */
export function fileVideo(id: string, accountId: number, collectionId: string): NewDlVideo {
  return {
    id,
    accountId,
    collectionId,
    status: 'processing',
    sourceType: 'file',
    sourceUrl: null,
    filename: `${id}.mp4`,
    contentType: null,
    uploadSize: null,
    fps: 1,
    metadata: {},
    callbackUrl: null,
    idempotencyKey: null,
  };
}
