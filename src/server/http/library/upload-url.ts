import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENVELOPE_CODES, type UploadedVideo } from '../../../shared/api-types';
import { bucketOf, type ServiceContext } from '../../context';
import { admitNewMedia } from '../../library/admission';
import { startUrlUpload } from '../../library/url-upload';
import { ApiError, badRequest, success } from '../envelope';
import { discard, drainParts, nextPart } from '../multipart-drain';
import { accountOf } from './auth';
import { parseUploadFields, safeFileName, videoFieldsOf } from './form-fields';
import { indexingPrice } from './upload';

type RawFields = Map<string, string[]>;

/**
 * POST /upload_url: the real service's upload by link. Form fields as /upload's (multipart, urlencoded or a JSON
 * object) plus `url`; answered as /upload at once (UNPARSE). The original is fetched by a job through the datalake's
 * guarded fetcher, so the SSRF rules, the 3 GB limit, the media checks and the billing are those of an ingest by URL.
 */
export function registerUploadUrl(app: FastifyInstance, ctx: ServiceContext): void {
  void app.register((scope, _opts, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ctx.config.http.maxJsonBytes },
      (_request, body, next) => {
        const fields: RawFields = new Map();
        for (const [name, value] of new URLSearchParams(String(body)))
          fields.set(name, [...(fields.get(name) ?? []), value]);
        next(null, fields);
      },
    );

    scope.post('/upload_url', async (request, reply) => {
      const account = accountOf(request);
      admitNewMedia(ctx, account.id, indexingPrice(60));
      const raw = await readFields(request);
      const url = sourceUrl(raw);
      const form = parseUploadFields(raw);
      const cap = ctx.config.limits.concurrentIngests;
      if (ctx.videos.fetching(account.id) >= cap) {
        throw new ApiError(
          429,
          ENVELOPE_CODES.rateLimited,
          `${cap} videos are still being fetched from their links; wait for one to finish.`,
          { 'retry-after': '15' },
        );
      }
      const folderId = ctx.folders.resolve(account.id, form.folder_id, form.unique_id);
      const name = urlFileName(url);
      const row = startUrlUpload(
        ctx,
        {
          accountId: account.id,
          folderId,
          videoName: name,
          originalName: name,
          bucket: bucketOf(account.id),
          blob: null,
          contentType: 'application/octet-stream',
          size: 0,
          sha256: '',
          duration: null,
          width: null,
          height: null,
          fps: null,
          codec: null,
          ...videoFieldsOf(form),
        },
        url,
      );
      const data: UploadedVideo = {
        videoNo: row.video_no,
        videoName: row.video_name,
        videoStatus: 'UNPARSE',
        uploadTime: String(row.created_at),
      };
      return reply.send(success(data));
    });
    done();
  });
}

/** The form fields of a multipart (fields only), urlencoded or JSON body, as name -> values. */
async function readFields(request: FastifyRequest): Promise<RawFields> {
  if (request.isMultipart()) {
    const fields: RawFields = new Map();
    const parts = request.parts()[Symbol.asyncIterator]();
    for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
      const part = next.value;
      if (part.type === 'file') {
        await discard(part.file);
        await drainParts(parts);
        throw badRequest('upload_url takes a url field, not a file part (upload files with /upload)');
      }
      fields.set(part.fieldname, [
        ...(fields.get(part.fieldname) ?? []),
        typeof part.value === 'string' ? part.value : String(part.value),
      ]);
    }
    return fields;
  }
  if (request.body instanceof Map) return request.body as RawFields;
  if (request.body && typeof request.body === 'object' && !Array.isArray(request.body)) {
    const fields: RawFields = new Map();
    for (const [name, value] of Object.entries(request.body)) {
      const values: unknown[] = Array.isArray(value) ? value : [value];
      if (!values.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
        throw badRequest(`${name} must be text`);
      fields.set(name, values.map(String));
    }
    return fields;
  }
  throw badRequest(
    'upload_url takes form fields (multipart/form-data, application/x-www-form-urlencoded) or a JSON object with url',
  );
}

function sourceUrl(fields: RawFields): string {
  const values = fields.get('url') ?? [];
  if (values.length > 1) throw badRequest('url was given more than once');
  const url = values[0]?.trim() ?? '';
  if (!url) throw badRequest('url is required');
  if (url.length > 2048) throw badRequest('url must be at most 2048 characters');
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw badRequest('url must be an http or https URL');
  return url;
}

/** The stored name: the link's last path segment (percent-decoded where it decodes), sanitised. */
function urlFileName(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // a malformed escape: keep the raw segment
  }
  return safeFileName(decoded || 'video');
}
