import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Account } from '../../accounts/accounts';
import type { Datalake } from '../../datalake/datalake';
import { DatalakeError, invalid } from '../../datalake/errors';
import { OperationFailure } from '../../ingest/operation-failure';
import { checkMedia, extensionAllowed, mayBeVideoType } from '../../ingest/media';
import { admit, replayed, targetCollection } from '../../datalake/ingest-admission';
import { newVideoId, startIngest } from '../../datalake/start-ingest';
import { discard, drainParts, malformed, nextPart } from '../multipart-drain';
import { diskFullMessage } from '../storage-error';
import { safeFileName, urlFileName } from '../../ingest/file-names';
import { ingestFields, rejectResumableFields, requestHash, type IngestFields } from './ingest-fields';
import { parse } from './parse';
import type { OperationRecord } from './answers';
import { createResumable, type UploadSession } from './resumable';
import { answer, datalakeRoute } from './route';

const videosQuery = z.object({ upload: z.enum(['resumable']).optional() }).strict();

/** POST /videos: by source_url (JSON), by file (multipart `json` + `file`), or a resumable session (?upload=resumable). */
export function registerIngest(app: FastifyInstance, dl: Datalake): void {
  datalakeRoute(app, {
    method: 'POST',
    url: '/videos',
    query: videosQuery,
    response: answer<OperationRecord | UploadSession>(),
    handler: async ({ account, query, request, reply }) => {
      if (query.upload === 'resumable') return createResumable(dl, account, request, reply);
      if (request.isMultipart()) return ingestMultipart(dl, account, request, reply);
      void reply.code(202);
      const fields = parse(ingestFields, request.body);
      rejectResumableFields(fields);
      if (!fields.source_url)
        throw invalid('source_url is required (or send the file as multipart, or use ?upload=resumable)');
      const hash = requestHash('url', fields);
      const previous = await replayed(dl, account.id, fields.idempotency_key, hash);
      if (previous) return await dl.operations.record(previous);
      await targetCollection(dl, account, fields.collection_id);
      await admit(dl, account);
      const { op } = await startIngest(dl, {
        ...common(account, fields, hash),
        sourceType: 'url',
        sourceUrl: fields.source_url,
        filename: urlFileName(fields.source_url),
        contentType: null,
      });
      return await dl.operations.record(op);
    },
  });
}

function common(account: Account, f: IngestFields, hash: string) {
  return {
    accountId: account.id,
    collectionId: f.collection_id,
    fps: f.fps,
    metadata: f.metadata,
    callbackUrl: f.callback_url ?? null,
    idempotencyKey: f.idempotency_key ?? null,
    requestHash: hash,
  };
}

async function ingestMultipart(
  dl: Datalake,
  account: Account,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<OperationRecord> {
  const parts = request.parts();
  let fields: IngestFields | undefined;
  let stored: string | undefined;
  let staged: string | undefined;
  // The file part being read, until it is consumed: a refusal reads what is left of it before answering.
  let open: Readable | null = null;
  try {
    // A malformed body (bad boundary, truncated part) is the client's error: 400, not 500.
    for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname !== 'json' || fields) throw invalid('send one `json` field part, then the `file` part');
        fields = parse(ingestFields, parseJson(part.value));
        rejectResumableFields(fields);
        if (fields.source_url) throw invalid('source_url and a file part are exclusive');
        const previous = await replayed(dl, account.id, fields.idempotency_key, requestHash('file', fields));
        if (previous) {
          if (!(await drainParts(parts))) void reply.header('connection', 'close');
          void reply.code(202);
          return await dl.operations.record(previous);
        }
        await targetCollection(dl, account, fields.collection_id);
        await admit(dl, account);
        continue;
      }
      open = part.file;
      if (!fields) throw invalid('the `json` part must come before the `file` part');
      if (stored) throw invalid('exactly one file part is allowed');
      const videoId = newVideoId();
      stored = dl.uploadPath(videoId);
      await receive(part, stored);
      open = null;
      const path = stored;
      const form = fields;
      // The probe and the staging (a multipart upload of the whole file to S3) take a while on a big file: the
      // connection is kept alive meanwhile (keep-alive.ts).
      await checkMedia(path).catch((err: unknown) => {
        if (err instanceof OperationFailure) throw new DatalakeError(415, 'unsupported_media', err.message);
        throw err;
      });
      // Staged before the ingest is queued: a worker on any machine finds it in the blob store.
      await dl.uploads.stage({ id: videoId, account_id: account.id });
      staged = videoId;
      const started = await startIngest(
        dl,
        {
          ...common(account, form, requestHash('file', form)),
          sourceType: 'file',
          sourceUrl: null,
          filename: safeFileName(part.filename || 'video'),
          contentType: part.mimetype,
        },
        videoId,
      );
      // An ingest with the same key, started meanwhile, is the answer.
      if (started.replayed) await dl.uploads.remove({ id: videoId, account_id: account.id });
      const op = started.op;
      stored = staged = undefined; // the ingest owns the file now
      void reply.code(202);
      return await dl.operations.record(op);
    }
    throw invalid('the `file` part is missing');
  } catch (err) {
    if (stored) await rm(stored, { force: true });
    if (staged) await dl.uploads.remove({ id: staged, account_id: account.id });
    // Answer after reading the rest of the body, as HTTP clients expect (closing on unread data makes them see a
    // reset, not the answer); past the cap, close instead of reading gigabytes.
    const drained = (open === null || open.readableEnded || (await discard(open))) && (await drainParts(parts));
    if (!drained) void reply.header('connection', 'close');
    throw err;
  }
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') throw invalid('the json part must be text');
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalid('the json part is not valid JSON');
  }
}

async function receive(part: MultipartFile, path: string): Promise<void> {
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw invalid(`the file part must be named "file", not "${part.fieldname}"`);
  }
  if (!mayBeVideoType(part.mimetype) || !extensionAllowed(part.filename || '')) {
    part.file.resume();
    throw new DatalakeError(
      415,
      'unsupported_media',
      `${part.filename || 'the file'} (${part.mimetype || 'no type'}) is not a supported video`,
    );
  }
  try {
    await pipeline(part.file, createWriteStream(path));
  } catch (err) {
    // A body that breaks off mid-file is malformed; a failure to write (e.g. ENOSPC) stays the service's own error.
    const full = diskFullMessage(err);
    if (full) throw new DatalakeError(507, 'internal', full);
    if (typeof (err as { syscall?: unknown }).syscall === 'string') throw err;
    throw malformed(err);
  }
  if (part.file.truncated) throw new DatalakeError(413, 'payload_too_large', 'the file is larger than 3 GB');
}
