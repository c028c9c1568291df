import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Account } from '../../accounts/accounts';
import { DatalakeError, invalid, missing } from '../../datalake/errors';
import type { Datalake } from '../../datalake/datalake';
import type { CollectionRow } from '../../datalake/collections';
import type { OperationRow } from '../../datalake/operations';
import { MAX_MEDIA_BYTES } from '../../datalake/media';
import { indexingPrice } from '../../accounts/billing';
import { conflict, tryDecodePercent } from './parse';

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

/** The account's active collection for a new video. */
export function targetCollection(dl: Datalake, account: Account, collectionId: string): CollectionRow {
  const collection = dl.collections.get(account.id, collectionId);
  if (!collection) throw missing('collection');
  if (collection.state !== 'active') throw conflict('the collection is being deleted');
  return collection;
}

/** A previous ingest with this key: returned as is (no second ingest, no second charge) if the request matches. */
export function replayed(
  dl: Datalake,
  account: Account,
  key: string | undefined,
  hash: string,
): OperationRow | undefined {
  if (!key) return undefined;
  const previous = dl.operations.byIdempotencyKey(account.id, key);
  if (previous && previous.request_hash !== hash)
    throw conflict('idempotency_key was already used for a different request');
  return previous;
}

/** Refuses a new ingest over the concurrent-indexing cap (429 + Retry-After) or without funds for a minute of video. */
export function admit(dl: Datalake, account: Account): void {
  const cap = dl.ctx.config.limits.concurrentIngests;
  const active = dl.operations.activeIngests(account.id);
  if (active >= cap) {
    throw new DatalakeError(429, 'rate_limited', `${active} ingests are running, the plan allows ${cap} at once`, {
      'retry-after': '15',
    });
  }
  dl.ctx.billing.requireAtLeast(account.id, indexingPrice(60));
}

export function rejectResumableFields(f: IngestFields): void {
  if (f.size !== undefined || f.filename !== undefined || f.content_type !== undefined) {
    throw invalid('size, filename and content_type belong to resumable uploads (POST /videos?upload=resumable)');
  }
}
