import fc from 'fast-check';
import { DATALAKE_BASE_PATH } from '../../src/shared/api-types';

export interface FuzzAttack {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const id = (prefix: string, real: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...real, `${prefix}0000`),
    fc.string({ maxLength: 40 }).map((s) => `${prefix}${encodeURIComponent(s)}`),
    fc.constantFrom('..%2F..%2Fservice.db', '%00', 'x'.repeat(600), ''),
  );

/** Wrong types, huge values and hostile strings in the fields interface B reads. */
const fields = (collection: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record(
      {
        collection_id: fc.oneof(fc.constant(collection), fc.string(), fc.integer(), fc.constant(null)),
        // No valid http URL of a reachable host: a valid one would start real fetches and live pulls.
        source_url: fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.constantFrom(
            'file:///etc/passwd',
            'rtsp://x/y',
            'ftp://x/y.mp4',
            'http://[::1',
            'javascript:alert(1)',
            'http://256.256.256.256/x.mp4',
          ),
        ),
        callback_url: fc.oneof(fc.string(), fc.constantFrom('gopher://x', 'http://', 'x'.repeat(5000))),
        idempotency_key: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
        fps: fc.oneof(fc.double(), fc.string(), fc.integer({ min: -10, max: 100 })),
        segment_seconds: fc.oneof(fc.integer({ min: -5, max: 500 }), fc.string()),
        metadata: fc.oneof(
          fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 80 }),
          fc.string(),
          fc.array(fc.integer()),
        ),
        size: fc.oneof(fc.integer({ min: -5, max: 4_000_000_000 }), fc.double(), fc.string()),
        filename: fc.oneof(fc.string(), fc.constantFrom('../../x.mp4', 'a\u0000.mp4', 'x.exe')),
        content_type: fc.string(),
        name: fc.oneof(fc.string({ maxLength: 400 }), fc.integer(), fc.constant(null)),
        safety_detector: fc.oneof(fc.boolean(), fc.string()),
        face_recognition: fc.oneof(fc.boolean(), fc.integer()),
        query: fc.oneof(fc.string({ maxLength: 1200 }), fc.integer()),
        top_k: fc.oneof(fc.integer({ min: -5, max: 500 }), fc.string()),
        video_ids: fc.oneof(fc.array(fc.string(), { maxLength: 120 }), fc.string()),
      },
      { requiredKeys: [] },
    ),
  );

const PATHS = (ids: { collection: string; upload: string }): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '/collections',
      '/videos',
      '/videos?upload=resumable',
      '/search',
      '/streams',
      '/usage/balance',
      '/operations',
      '/uploads',
    ),
    id('col_', [ids.collection]).map((x) => `/collections/${x}`),
    id('VI', [ids.upload]).map((x) => `/videos/${x}`),
    id('VI', [ids.upload]).map((x) => `/videos/${x}:finalize`),
    id('VI', [ids.upload]).map((x) => `/videos/${x}/events`),
    id('VI', [ids.upload]).map((x) => `/videos/${x}/moment`),
    id('op_', []).map((x) => `/operations/${x}`),
    id('op_', []).map((x) => `/operations/${x}:cancel`),
    id('op_', []).map((x) => `/operations/${x}/deliveries`),
    id('str_', []).map((x) => `/streams/${x}`),
    id('str_', []).map((x) => `/streams/${x}/events`),
    id('VI', [ids.upload]).map((x) => `/uploads/${x}`),
  );

/** Malformed requests across every interface B endpoint: JSON, multipart ingest, resumable chunks, header abuse. */
export function datalakeAttacks(
  key: string,
  libraryKey: string,
  ids: { collection: string; upload: string },
  media: Buffer,
): fc.Arbitrary<FuzzAttack> {
  const auth = fc.oneof(
    fc.constant(key),
    fc.constant(key),
    fc.constant(key),
    fc.constant(libraryKey),
    fc.string({ maxLength: 200 }),
    fc.constant(''),
  );
  const query = fc.oneof(
    fc.constant(''),
    fc.webQueryParameters().map((q) => (q ? `?${q}` : '')),
    fc.constantFrom('?limit=0', '?limit=abc', '?cursor=%ff%fe', '?since=-1', '?limit=100&cursor=x'),
  );
  const path = fc
    .tuple(PATHS(ids), query)
    .map(([p, q]) => `${DATALAKE_BASE_PATH}${p}${p.includes('?') ? q.replace('?', '&') : q}`);
  const json = fc.record({
    method: fc.constantFrom<FuzzAttack['method']>('GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH'),
    path,
    headers: fc.record({
      authorization: auth,
      'content-type': fc.constantFrom(
        'application/json',
        'application/json',
        'text/plain',
        'application/octet-stream',
        '',
      ),
    }),
    body: fc.oneof(
      fields(ids.collection).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.constant('{"collection_id": '),
      fc.constant('x'.repeat(1024 * 1024 + 10)),
    ),
  });
  const multipart = fc
    .record({
      json: fc.oneof(
        fields(ids.collection).map((v) => JSON.stringify(v)),
        fc.string(),
      ),
      jsonFirst: fc.boolean(),
      file: fc.option(
        fc.record({
          name: fc.oneof(fc.constantFrom('a.mp4', '../x.mov', 'x.exe', ''), fc.string()),
          type: fc.constantFrom('video/mp4', 'application/octet-stream', 'image/png', ''),
          data: fc.oneof(
            fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
            fc.constant(media),
          ),
        }),
      ),
      broken: fc.boolean(),
      auth,
    })
    .map(({ json: j, jsonFirst, file, broken, auth: a }) => {
      const b = 'fuzzB';
      const jsonPart = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="json"\r\n\r\n${j}\r\n`);
      const filePart = file
        ? Buffer.concat([
            Buffer.from(
              `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
            ),
            file.data,
            Buffer.from('\r\n'),
          ])
        : Buffer.alloc(0);
      const parts = jsonFirst ? [jsonPart, filePart] : [filePart, jsonPart];
      if (!broken) parts.push(Buffer.from(`--${b}--\r\n`));
      return {
        method: 'POST' as const,
        path: `${DATALAKE_BASE_PATH}/videos`,
        headers: { authorization: a, 'content-type': `multipart/form-data; boundary=${b}` },
        body: Buffer.concat(parts),
      };
    });
  const chunk = fc
    .record({
      upload: id('VI', [ids.upload, ids.upload]),
      range: fc.oneof(
        fc.constantFrom(
          'bytes 0-1023/4096',
          'bytes 0-0/1',
          'bytes 5-1/4096',
          'bytes */4096',
          'bytes 0-99999999999/1',
          'bytes=0-10',
          '',
          'bytes -1-5/9',
        ),
        fc.string(),
      ),
      data: fc.uint8Array({ maxLength: 4096 }).map((a) => Buffer.from(a)),
      auth,
    })
    .map(({ upload, range, data, auth: a }) => ({
      method: 'PUT' as const,
      path: `${DATALAKE_BASE_PATH}/uploads/${upload}`,
      headers: { authorization: a, 'content-type': 'application/octet-stream', 'content-range': range },
      body: data,
    }));
  return fc.oneof({ arbitrary: json, weight: 5 }, { arbitrary: multipart, weight: 2 }, { arbitrary: chunk, weight: 2 });
}

/** Whether an interface B answer has the documented shape: an error body on failure, a JSON object on success. */
export function datalakeShapeProblem(status: number, contentType: string, body: Buffer): string | null {
  if (!contentType.startsWith('application/json')) return `HTTP ${status} with ${contentType || 'no content type'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString());
  } catch {
    return `HTTP ${status}: unparseable JSON ${body.toString().slice(0, 120)}`;
  }
  if (typeof parsed !== 'object' || parsed === null) return `HTTP ${status}: not an object`;
  if (status >= 400) {
    const err = (parsed as { error?: { code?: unknown; message?: unknown } }).error;
    if (typeof err?.code !== 'string' || typeof err.message !== 'string')
      return `HTTP ${status}: not an error body: ${body.toString().slice(0, 160)}`;
  }
  return null;
}
