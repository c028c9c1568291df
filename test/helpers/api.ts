import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { FormData, request } from 'undici';
import type { Envelope } from '../../src/shared/api-types';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Envelope<T>;
}

/** A thin HTTP caller for the service tests: raw key in Authorization, envelopes parsed. */
export function apiClient(baseUrl: string, key: string) {
  const raw = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RawResponse> => {
    const res = await request(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: key,
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
  };
  const json = async <T = unknown>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<JsonResponse<T>> => {
    const res = await raw(method, path, body);
    return { status: res.status, headers: res.headers, json: JSON.parse(res.body.toString()) as Envelope<T> };
  };
  return {
    raw,
    get: <T = unknown>(path: string) => json<T>('GET', path),
    post: <T = unknown>(path: string, body: unknown) => json<T>('POST', path, body),
    patch: <T = unknown>(path: string, body: unknown) => json<T>('PATCH', path, body),
    del: <T = unknown>(path: string) => json<T>('DELETE', path),
    /** Multipart upload to /upload; fields may repeat (arrays). */
    upload: async <T = unknown>(
      file: string,
      fields: Record<string, string | string[]> = {},
      options: { contentType?: string; filename?: string; path?: string } = {},
    ): Promise<JsonResponse<T>> => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields))
        for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
      form.append(
        'file',
        await openAsBlob(file, { type: options.contentType ?? 'video/mp4' }),
        options.filename ?? basename(file),
      );
      return json<T>('POST', options.path ?? '/upload', form);
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** Polls get_metadata until the video leaves UNPARSE (or the time runs out). */
export async function waitForStatus(
  api: ApiClient,
  videoNo: string,
  timeoutMs = 60_000,
): Promise<{ status: string; [k: string]: unknown }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get<{ status: string }>(`/get_metadata?video_no=${videoNo}`);
    const data = res.json.data;
    if (data && data.status !== 'UNPARSE') return data;
    if (Date.now() > end) throw new Error(`video ${videoNo} still ${data?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
