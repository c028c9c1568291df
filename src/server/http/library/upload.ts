import { rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENVELOPE_CODES, UPLOAD_LIMITS } from '../../../shared/api-types';
import type { ServiceContext } from '../../context';
import type { IncomingUpload, LibraryIngest, ReceivedFile } from '../../library/ingest';
import { HttpError, badRequest, success } from '../envelope';
import { copyStage } from '../copy-stage';
import { DrainingFileSink } from '../draining-file-sink';
import { watchFilePartLength } from '../file-part-length';
import { DRAIN_CAP, discard, drainParts, malformed, nextPart } from '../multipart-drain';
import { diskFullMessage } from '../storage-error';
import { parseUploadFields, uploadRequestOf } from './form-fields';
import { followStagedFile } from '../staged-hash/staged-file-hash';

/**
 * POST /upload: multipart `file` and form fields. The file is staged in tmp for the probe and, on S3, sent to the store
 * as it arrives (one streamed PUT when the request foretells the file's length, else parts as they fill); after the last byte the ingest checks, charges and finishes or aborts the blob,
 * with `102 Processing` keeping the connection alive meanwhile (keep-alive.ts).
 */
export function registerUpload(app: FastifyInstance, ctx: ServiceContext, ingest: LibraryIngest): void {
  app.post('/upload', async (request, reply) => {
    const account = request.account;
    // Refuse before reading a byte when the balance cannot pay for even a minute of indexing.
    await ingest.admit(account.id);
    if (!request.isMultipart()) throw badRequest('upload must be multipart/form-data with a file part');

    const fields = new Map<string, string[]>();
    let received: ReceivedFile | undefined;
    let incoming: IncomingUpload | undefined;
    // Iterated by hand so that after a refusal the rest of the body can still be read (see drainParts).
    const parts = request.parts()[Symbol.asyncIterator]();
    // Attached in the tick that the first nextPart starts the parser in, so the two see the same bytes.
    const fileLength = watchFilePartLength(request.raw);
    try {
      for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
        const part = next.value;
        if (part.type === 'file') {
          if (received) {
            await discard(part.file);
            throw badRequest('exactly one file part is allowed');
          }
          incoming = await checkFilePart(part, (name) => ingest.receive(account.id, name, fileLength()));
          received = await receiveFile(ctx, part, request, incoming);
        } else {
          const value = typeof part.value === 'string' ? part.value : String(part.value);
          fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), value]);
        }
      }
      if (!received) throw badRequest('file is required');
      const form = parseUploadFields(fields);
      const file = received;
      const into = incoming!;
      const video = await ingest.fromFile(account.id, file, into, uploadRequestOf(form));
      incoming = undefined; // stored: the video's now
      return reply.send(success(video));
    } catch (err) {
      await incoming?.receiver.abort().catch((abortErr: unknown) => {
        ctx.log.warn(`upload ${incoming?.videoNo}: could not remove its partial blob: ${String(abortErr)}`);
      });
      // Answer after reading the rest of the body, as HTTP clients expect; past a cap, close instead of reading gigabytes.
      if (!(await drainParts(parts))) void reply.header('connection', 'close');
      throw err;
    } finally {
      if (received) await rm(received.tmpPath, { force: true });
    }
  });
}

/** Refuses a file part by its name, extension or type before reading it; otherwise gives it a place in the store. */
async function checkFilePart(part: MultipartFile, receive: (name: string) => IncomingUpload): Promise<IncomingUpload> {
  if (part.fieldname !== 'file') {
    await discard(part.file);
    throw badRequest(`the file part must be named "file", not "${part.fieldname}"`);
  }
  const ext = extname(part.filename || 'video').toLowerCase();
  if (!(UPLOAD_LIMITS.extensions as readonly string[]).includes(ext)) {
    await discard(part.file);
    throw badRequest(`file extension ${ext || '(none)'} is not supported; allowed: .mp4, .avi, .mkv, .mov`);
  }
  if (!part.mimetype.toLowerCase().startsWith('video/')) {
    await discard(part.file);
    throw badRequest(`file Content-Type must start with video/, got ${part.mimetype || '(none)'}`);
  }
  return receive(part.filename || 'video');
}

/** Reads the file part into a staged copy in tmp and, when the store takes one, its copy as the bytes arrive. */
async function receiveFile(
  ctx: ServiceContext,
  part: MultipartFile,
  request: FastifyRequest,
  incoming: IncomingUpload,
): Promise<ReceivedFile> {
  const name = part.filename || 'video';
  const ext = extname(name).toLowerCase();
  const tmpPath = join(ctx.tmpDir, `upload-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}${ext}`);
  const hash = followStagedFile(tmpPath);
  const copy = incoming.receiver.copy;
  let storeError: Error | undefined;
  copy?.once('error', (err) => (storeError = err));
  const sink = new DrainingFileSink(tmpPath, DRAIN_CAP, (written) => hash.written(written));
  try {
    const signal = abortOnClose(request);
    await (copy ? pipeline(part.file, copyStage(copy), sink, { signal }) : pipeline(part.file, sink, { signal }));
  } catch (err) {
    hash.drop();
    await rm(tmpPath, { force: true });
    if (storeError) throw storeError; // the store failed, not the client: answered as the service's error
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || part.file.truncated) {
      throw badRequest('file is larger than the 3 GB limit');
    }
    const full = diskFullMessage(err);
    if (full) throw new HttpError(507, ENVELOPE_CODES.error, full);
    throw malformed(err);
  }
  const size = sink.written;
  const refusal = part.file.truncated ? 'file is larger than the 3 GB limit' : size === 0 ? 'file is empty' : null;
  if (refusal) {
    hash.drop();
    await rm(tmpPath, { force: true });
    throw badRequest(refusal);
  }
  try {
    return { tmpPath, name, contentType: part.mimetype, size, sha256: await hash.digest(size) };
  } catch (err) {
    await rm(tmpPath, { force: true });
    throw err;
  }
}

function abortOnClose(request: FastifyRequest): AbortSignal {
  const controller = new AbortController();
  request.raw.once('close', () => {
    if (!request.raw.complete) controller.abort();
  });
  return controller.signal;
}
