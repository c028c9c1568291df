import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context';
import type { LibraryIngest } from '../../library/ingest';
import { badRequest, success } from '../envelope';
import { discard, drainParts, nextPart } from '../multipart-drain';
import { parseUploadFields, uploadRequestOf } from './form-fields';

type RawFields = Map<string, string[]>;

/**
 * POST /upload_url: the real service's upload by link. Form fields as /upload's (multipart, urlencoded or a JSON
 * object) plus `url`; answered as /upload at once (UNPARSE). The original is fetched by a job through the datalake's
 * guarded fetcher, so the SSRF rules, the 3 GB limit, the media checks and the billing are those of an ingest by URL.
 */
export function registerUploadUrl(app: FastifyInstance, ctx: ServiceContext, ingest: LibraryIngest): void {
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
      const account = request.account;
      await ingest.admit(account.id);
      const raw = await readFields(request);
      const url = sourceUrl(raw);
      const form = parseUploadFields(raw);
      return reply.send(success(await ingest.fromUrl(account.id, url, uploadRequestOf(form))));
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
