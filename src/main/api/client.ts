import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { semanticStateSchema, type SemanticState } from '../../shared/semantic-state';
import {
  captionItemSchema,
  clipItemSchema,
  ENVELOPE_CODES,
  envelopeSchema,
  folderSchema,
  listVideosDataSchema,
  metadataSchema,
  transcriptionSchema,
  uploadedVideoSchema,
  type SearchType,
  type UploadedVideo,
  type VideoMetadata,
} from '../../shared/api-types';
import { mediaTypeOf } from '../../shared/media-types';
import type { Logger } from '../log';
import { LibraryApiError, classify, fromTransportError, parseRetryAfter } from './errors';
import { multipartBody } from './multipart';
import { ProgressMeter, type TransferProgress } from './progress';

export interface LibraryClientOptions {
  /** Base address including /serve/api/v1. */
  baseUrl: string;
  key: string;
  logger: Logger;
  dispatcher?: Dispatcher;
  /** Per-request timeout for JSON calls. */
  timeoutMs?: number;
}

/** The upload form's fields, named as the API names them (interface A, `upload`); tags beyond 20 are dropped. */
export interface UploadFields {
  folder_id?: number;
  callback?: string;
  datetime_taken?: string;
  camera_model?: string;
  latitude?: number;
  longitude?: number;
  tags?: string[];
}

export interface UploadOptions {
  signal?: AbortSignal;
  onProgress?: (p: TransferProgress) => void;
  /** The content hash the file had when queued: the upload is broken off if the bytes read no longer match. */
  sha256?: string;
}

export interface ListVideosFilter {
  page?: number;
  size?: number;
  video_name?: string;
  video_no?: string;
  status?: 'UNPARSE' | 'PARSE' | 'FAIL';
  folder_id?: number;
  tag?: string;
}

/** A search body, named as the API names it (interface A, `search`). */
export interface SearchRequest {
  search_param: string;
  search_type?: Exclude<SearchType, 'BY_IMAGE'>;
  top_k?: number;
  folder_id?: number;
  tag?: string;
  camera_tag?: string;
  datetime_taken?: string;
  latitude?: number;
  longitude?: number;
  radius_km?: number;
  filtering_level?: 'low' | 'medium' | 'high';
}

const deleteAnswerSchema = z.object({ deleted: z.array(z.string()), not_found: z.array(z.string()).default([]) });

export const searchResultSchema = z.union([z.array(clipItemSchema), z.array(captionItemSchema)]);
export type SearchResult = z.infer<typeof searchResultSchema>;

/** The upload's Content-Type: its video type, MP4 when the extension names none (the service probes the bytes anyway). */
export function videoContentType(path: string): string {
  const type = mediaTypeOf(path);
  return type?.startsWith('video/') ? type : 'video/mp4';
}

/**
 * The one HTTP client of interface A. Every answer is parsed with the api-types schemas; every failure is an LibraryApiError
 * whose disposition (retry | rate-limited | fatal) comes from `classify`. Redirects are never followed (undici's
 * request() has no redirect handling; a 3xx is a fatal protocol error), so the key never leaves for another host.
 */
export class LibraryClient {
  private readonly base: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly log: Logger;

  constructor(private readonly options: LibraryClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.ownsDispatcher = !options.dispatcher;
    this.dispatcher =
      options.dispatcher ??
      new Agent({ keepAliveTimeout: 10_000, connections: 16, headersTimeout: 300_000, bodyTimeout: 300_000 });
    this.log = options.logger.child({ module: 'api' });
  }

  get baseUrl(): string {
    return this.base;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  async upload(path: string, size: number, fields: UploadFields, options: UploadOptions = {}): Promise<UploadedVideo> {
    const form: [string, string][] = [];
    if (fields.folder_id !== undefined) form.push(['folder_id', String(fields.folder_id)]);
    if (fields.callback !== undefined) form.push(['callback', fields.callback]);
    if (fields.datetime_taken !== undefined) form.push(['datetime_taken', fields.datetime_taken]);
    if (fields.camera_model !== undefined) form.push(['camera_model', fields.camera_model]);
    if (fields.latitude !== undefined && fields.longitude !== undefined) {
      form.push(['latitude', String(fields.latitude)], ['longitude', String(fields.longitude)]);
    }
    (fields.tags ?? []).slice(0, 20).forEach((tag, i) => form.push([`tags[${i}]`, tag]));
    const body = multipartBody(form, {
      field: 'file',
      path,
      filename: basename(path),
      contentType: videoContentType(path),
      size,
      sha256: options.sha256,
    });
    const meter = new ProgressMeter(size);
    const onBytes = (n: number): void => {
      const p = meter.add(n);
      if (p) options.onProgress?.(p);
    };
    const started = Date.now();
    const video = await this.call('POST', '/upload', uploadedVideoSchema, {
      headers: { 'content-type': body.contentType, 'content-length': String(body.length) },
      body: Readable.from(body.stream(onBytes, options.signal), { objectMode: false }),
      signal: options.signal,
      timeoutMs: null,
    });
    options.onProgress?.(meter.snapshot());
    this.log.debug({ videoNo: video.videoNo, size, ms: Date.now() - started }, 'uploaded');
    return video;
  }

  /** Metadata of a video, or null when the service does not know it. */
  async getMetadata(videoNo: string, signal?: AbortSignal): Promise<VideoMetadata | null> {
    return this.callNullable('GET', `/get_metadata?video_no=${encodeURIComponent(videoNo)}`, metadataSchema, {
      signal,
    });
  }

  /** A video's transcript, one row per indexed segment with speech; null when the service does not know the video. */
  async getTranscription(videoNo: string, signal?: AbortSignal): Promise<z.infer<typeof transcriptionSchema> | null> {
    return this.callNullable(
      'GET',
      `/get_video_transcription?video_no=${encodeURIComponent(videoNo)}`,
      transcriptionSchema,
      { signal },
    );
  }

  async listVideos(filter: ListVideosFilter, signal?: AbortSignal): Promise<z.infer<typeof listVideosDataSchema>> {
    return this.call('POST', '/list_videos', listVideosDataSchema, jsonBody({ page: 1, size: 20, ...filter }, signal));
  }

  async search(req: SearchRequest, signal?: AbortSignal): Promise<SearchResult> {
    return this.call('POST', '/search', searchResultSchema, jsonBody(req, signal));
  }

  async createFolder(name: string, signal?: AbortSignal): Promise<z.infer<typeof folderSchema>> {
    return this.call('POST', '/folders', folderSchema, jsonBody({ name }, signal));
  }

  async listFolders(signal?: AbortSignal): Promise<z.infer<typeof folderSchema>[]> {
    return this.call('GET', '/folders', z.array(folderSchema), { signal });
  }

  /** Deletes videos (and their keyframes) from the library: at most 100 per call; unknown numbers come back in notFound. */
  async deleteVideos(videoNos: string[], signal?: AbortSignal): Promise<{ deleted: string[]; notFound: string[] }> {
    if (videoNos.length === 0) return { deleted: [], notFound: [] };
    if (videoNos.length > 100) throw new LibraryApiError('fatal', 'validation', 'at most 100 video numbers per delete');
    const data = await this.call(
      'POST',
      '/delete_videos',
      deleteAnswerSchema,
      jsonBody({ video_nos: videoNos }, signal),
    );
    return { deleted: data.deleted, notFound: data.not_found };
  }

  /** The service's semantic model slot (a Reelsync extension: GET /semantic, POST /semantic/download). */
  /** The model slot, a Reelsync extension: a service without one (404) is `not-offered`. */
  async semanticState(signal?: AbortSignal): Promise<SemanticState> {
    return notOfferedOn404(this.call('GET', '/semantic', semanticStateSchema, { signal }));
  }

  async startSemanticDownload(signal?: AbortSignal): Promise<SemanticState> {
    return notOfferedOn404(this.call('POST', '/semantic/download', semanticStateSchema, jsonBody({}, signal)));
  }

  async cancelSemanticDownload(signal?: AbortSignal): Promise<SemanticState> {
    return notOfferedOn404(this.call('POST', '/semantic/cancel', semanticStateSchema, jsonBody({}, signal)));
  }

  /** Installs the model from a folder or .zip/.tar on the service's machine (checked first; 400 names what is wrong). */
  async installSemanticModel(path: string, signal?: AbortSignal): Promise<SemanticState> {
    return notOfferedOn404(this.call('POST', '/semantic/install', semanticStateSchema, jsonBody({ path }, signal)));
  }

  private async call<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: T,
    init: CallInit,
  ): Promise<z.output<T>> {
    const data = await this.callNullable(method, path, schema, init);
    if (data === null) throw new LibraryApiError('fatal', 'protocol', `${method} ${path}: success without data`);
    return data;
  }

  private async callNullable<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: T,
    init: CallInit,
  ): Promise<z.output<T> | null> {
    const timeoutMs = init.timeoutMs === undefined ? (this.options.timeoutMs ?? 30_000) : init.timeoutMs;
    const signal = combine(init.signal, timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs));
    let status: number;
    let text: string;
    let headers: Record<string, string | string[] | undefined>;
    try {
      const res = await request(`${this.base}${path}`, {
        method,
        dispatcher: this.dispatcher,
        headers: { authorization: this.options.key, accept: 'application/json', ...init.headers },
        body: init.body,
        signal,
      });
      status = res.statusCode;
      headers = res.headers;
      text = await res.body.text();
    } catch (err) {
      if (init.signal?.aborted) throw err;
      if (signal?.aborted)
        throw new LibraryApiError(
          'retry',
          'network',
          `${method} ${path} timed out after ${timeoutMs} ms`,
          {},
          { cause: err },
        );
      throw fromTransportError(err, init.signal);
    }
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw classify(
        status,
        undefined,
        retryAfterMs,
        `${method} ${path}: HTTP ${status} with a non-JSON body: ${text.slice(0, 200)}`,
      );
    }
    const envelope = envelopeSchema(z.unknown()).safeParse(json);
    if (!envelope.success)
      throw classify(status, undefined, retryAfterMs, `${method} ${path}: HTTP ${status} without the library envelope`);
    const { code, msg, success, data } = envelope.data;
    if (status >= 300 || code !== ENVELOPE_CODES.success || !success) throw classify(status, code, retryAfterMs, msg);
    if (data === null || data === undefined) return null;
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      throw new LibraryApiError(
        'fatal',
        'protocol',
        `${method} ${path}: unexpected data: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    return parsed.data;
  }
}

interface CallInit {
  headers?: Record<string, string>;
  body?: string | Readable;
  signal?: AbortSignal;
  /** null: no timeout (uploads); undefined: the client default. */
  timeoutMs?: number | null;
}

function jsonBody(value: unknown, signal?: AbortSignal): CallInit {
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(value), signal };
}

function combine(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

async function notOfferedOn404(answer: Promise<SemanticState>): Promise<SemanticState> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof LibraryApiError && err.details.status === 404) return { state: 'not-offered' };
    throw err;
  }
}
