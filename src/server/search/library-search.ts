import { readFile } from 'node:fs/promises';
import {
  FILTERING_LEVELS,
  PRICES_MICRO_USD,
  SEARCH_LIMITS,
  type CaptionItem,
  type ClipItem,
  type ImagePage,
} from '../../shared/api-types';
import { unreachable } from '../../shared/errors';
import type { ServiceContext } from '../context';
import { invalidInput, rateLimited } from '../domain-errors';
import { FaceQueryPool } from './photo/face-query-pool';
import { searchFaces } from './photo/face-search';
import { readImageHeader, type ImageHeader } from './photo/image-header';
import type { LibraryQuery } from './query/library-query';
import { lexicalVector } from './query/query-text';
import { captionItem, clipItem, imagePage } from './result-items';
import { inTierOrder } from './ranking/segment-scoring';
import type { SegmentFilter, SegmentHit } from './segment-types';

/** The data of POST /search, by search type. */
export type LibrarySearchResult = ClipItem[] | CaptionItem[] | ImagePage;

export interface TranscriptQuery {
  query: string;
  page: number;
  page_size: number;
}

export interface PhotoQuery {
  /** The query image, received whole. */
  path: string;
  /** Scratch folder of this query (removed by the caller). */
  workDir: string;
  topK: number;
  page: number;
}

/**
 * Interface A's searches: rate limit, charge, filters, ranking (off the HTTP thread, search-pool.ts), filtering level,
 * paging and the answers' items. A search is charged once its query is known to be valid.
 */
export class LibrarySearch {
  private readonly faceQueries: FaceQueryPool;

  constructor(private readonly ctx: ServiceContext) {
    this.faceQueries = new FaceQueryPool(ctx.log.child({ module: 'photo-query' }));
  }

  async close(): Promise<void> {
    await this.faceQueries.close();
  }

  /** Refuses a search over the account's rate limit (429 with Retry-After); counts one otherwise. */
  async takeSlot(accountId: number): Promise<void> {
    const wait = await this.ctx.limits.search.take(`search:${accountId}`);
    if (wait) throw rateLimited(wait);
  }

  /** POST /search (and the JSON form of /search_image, as BY_IMAGE). */
  async text(accountId: number, query: LibraryQuery): Promise<LibrarySearchResult> {
    const { ctx } = this;
    const k = topK(query);
    await this.takeSlot(accountId);
    const filter: SegmentFilter = {
      accountId,
      folderId: await ctx.folders.resolveFilter(accountId, query.folder_id, query.unique_id),
      videoNos: query.video_nos,
      tag: query.tag,
      cameraModel: query.camera_tag,
      takenSince: query.datetime_taken,
      near:
        query.latitude !== undefined && query.longitude !== undefined
          ? { latitude: query.latitude, longitude: query.longitude, radiusKm: query.radius_km }
          : undefined,
    };
    const min = query.filtering_level ? FILTERING_LEVELS[query.filtering_level] : 0;
    const text = query.search_param;
    await ctx.billing.charge(accountId, PRICES_MICRO_USD.search, 'search', query.search_type);
    switch (query.search_type) {
      case 'BY_CLIP':
      case 'BY_VIDEO': {
        // A spoken match counts as much here as in BY_AUDIO: the transcript's own ranking (its words' rarity in the
        // speech alone) joins the ranking over everything, each segment keeping the better of its two scores.
        const [all, spoken] = await Promise.all([
          ctx.search.search({ text, field: 'all', filter, limit: k }),
          ctx.search.search({ text, field: 'transcript', filter, limit: k }),
        ]);
        return withSpoken(all, spoken, k)
          .filter((h) => h.score >= min)
          .map((h) => clipItem(h, true));
      }
      case 'BY_AUDIO':
        return (await ctx.search.search({ text, field: 'transcript', filter, limit: k }))
          .filter((h) => h.score >= min)
          .map((h) => clipItem(h, false));
      case 'BY_CAPTION': {
        const qv = lexicalVector(query.search_param);
        return (await ctx.search.search({ text, field: 'caption', filter, limit: k }))
          .map((h) => captionItem(h, qv, accountId))
          .filter((c) => c.score >= min)
          .sort((a, b) => b.score - a.score);
      }
      case 'BY_IMAGE': {
        const hits = (await ctx.search.search({ text, field: 'all', filter, limit: SEARCH_LIMITS.topKMax })).filter(
          (h) => h.score >= min && h.keyframeBlob,
        );
        const pageSize = k;
        const page = hits
          .slice((query.page - 1) * pageSize, query.page * pageSize)
          .map((h) => ({ ...h, datetimeTaken: null, cameraModel: null, latitude: null, longitude: null }));
        return imagePage(hits.length, query.page, pageSize, page);
      }
      default:
        throw unreachable(query.search_type);
    }
  }

  /** GET /search_audio_transcripts: spoken words over the whole account, paged. */
  async transcripts(
    accountId: number,
    q: TranscriptQuery,
  ): Promise<{ current_page: number; page_size: number; total_count: number; items: ClipItem[] }> {
    await this.takeSlot(accountId);
    await this.ctx.billing.charge(accountId, PRICES_MICRO_USD.search, 'search', 'audio transcripts');
    const hits = await this.ctx.search.search({
      text: q.query,
      field: 'transcript',
      filter: { accountId },
      limit: SEARCH_LIMITS.topKMax,
    });
    return {
      current_page: q.page,
      page_size: q.page_size,
      total_count: hits.length,
      items: hits.slice((q.page - 1) * q.page_size, q.page * q.page_size).map((h) => clipItem(h, false)),
    };
  }

  /**
   * Search by photo: keyframes ranked by face similarity to the faces in the query image. The rate limit is taken by
   * the caller before the image is read (takeSlot).
   */
  async byPhoto(accountId: number, q: PhotoQuery): Promise<ImagePage & { faces_in_query: number }> {
    const { ctx } = this;
    const { format } = checkPixelBudget(await readFile(q.path), ctx.config.search.maxImagePixels);
    const descriptors = await this.faceQueries
      .descriptors({ path: q.path, format, workDir: q.workDir })
      .catch((err: unknown) => {
        throw invalidInput(`the query image could not be read: ${err instanceof Error ? err.message : String(err)}`);
      });
    await ctx.billing.charge(accountId, PRICES_MICRO_USD.search, 'search', 'BY_IMAGE photo');
    const hits = await searchFaces(ctx.sql, accountId, descriptors, SEARCH_LIMITS.topKMax);
    return {
      ...imagePage(hits.length, q.page, q.topK, hits.slice((q.page - 1) * q.topK, q.page * q.topK)),
      faces_in_query: descriptors.length,
    };
  }
}

/**
 * The hits of a search over everything with those of the same search over the transcript: a segment in both keeps its
 * better score, with the reasons and missing words of the search over everything (they name what it shows as well).
 */
export function withSpoken(all: SegmentHit[], spoken: SegmentHit[], limit: number): SegmentHit[] {
  const byId = new Map(all.map((h) => [h.segmentId, { ...h }]));
  for (const h of spoken) {
    const other = byId.get(h.segmentId);
    if (!other) byId.set(h.segmentId, { ...h });
    else if (h.score > other.score) other.score = h.score;
  }
  return inTierOrder([...byId.values()], limit);
}

function topK(query: LibraryQuery): number {
  if (query.search_type === 'BY_CAPTION') {
    const k = query.top_k ?? SEARCH_LIMITS.captionTopKDefault;
    if (k < 1 || k > SEARCH_LIMITS.captionTopKMax)
      throw invalidInput(`top_k must be between 1 and ${SEARCH_LIMITS.captionTopKMax} for BY_CAPTION`);
    return k;
  }
  const k = query.top_k ?? SEARCH_LIMITS.topKDefault;
  if (k < 1 || k > SEARCH_LIMITS.topKMax) throw invalidInput(`top_k must be between 1 and ${SEARCH_LIMITS.topKMax}`);
  return k;
}

/**
 * Refuses a query image before anything decodes it: a small file can declare a huge canvas (a 310 KB PNG of
 * 640x65000 decodes to 125 MB of pixels, and face detection then grows the service's memory for good). The header
 * says the size; formats whose header is not read here are refused rather than trusted.
 */
function checkPixelBudget(bytes: Buffer, maxPixels: number): ImageHeader {
  const header = readImageHeader(bytes);
  if (!header) throw invalidInput('the query image must be a JPEG, PNG, WebP, GIF or BMP file');
  const pixels = header.width * header.height;
  if (pixels > maxPixels) {
    throw invalidInput(
      `the query image is ${header.width}x${header.height} (${(pixels / 1e6).toFixed(1)} megapixels); at most ${(maxPixels / 1e6).toFixed(1)} megapixels are accepted`,
    );
  }
  return header;
}
