import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalid } from '../../datalake/errors';
import { MAX_MEDIA_BYTES } from '../../ingest/media';
import { tryDecodePercent } from './parse';

const httpUrl = (name: string) =>
  z
    .string()
    .max(2048)
    .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), `${name} must be an http or https URL`)
    // The path is percent-decoded later (the stored file name): a malformed escape is refused here, naming the field.
    .refine(
      (v) => !URL.canParse(v) || tryDecodePercent(new URL(v).pathname) !== null,
      `${name} has a malformed percent-escape in its path (write % as %25)`,
    );

const metadataValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);

/** Fields of POST /videos, as JSON body, as the multipart `json` part, or for a resumable session. */
export const ingestFields = z
  .object({
    collection_id: z.string().min(1).max(100),
    source_url: httpUrl('source_url').optional(),
    callback_url: httpUrl('callback_url').optional(),
    idempotency_key: z.string().min(1).max(255).optional(),
    fps: z.number().min(0.1).max(30).default(1),
    metadata: z
      .record(z.string().min(1).max(100), metadataValue)
      .refine((m) => Object.keys(m).length <= 50, 'metadata holds at most 50 keys')
      .default({}),
    // resumable sessions only
    filename: z.string().min(1).max(255).optional(),
    size: z.number().int().positive().max(MAX_MEDIA_BYTES).optional(),
    content_type: z.string().max(200).optional(),
  })
  .strict();

export type IngestFields = z.infer<typeof ingestFields>;

/** What makes two requests with the same idempotency_key "the same request". */
export function requestHash(kind: 'url' | 'file', f: IngestFields): string {
  const key = {
    kind,
    c: f.collection_id,
    u: f.source_url ?? null,
    cb: f.callback_url ?? null,
    fps: f.fps,
    m: f.metadata,
  };
  return createHash('sha256').update(JSON.stringify(key)).digest('hex');
}

export function rejectResumableFields(f: IngestFields): void {
  if (f.size !== undefined || f.filename !== undefined || f.content_type !== undefined) {
    throw invalid('size, filename and content_type belong to resumable uploads (POST /videos?upload=resumable)');
  }
}
