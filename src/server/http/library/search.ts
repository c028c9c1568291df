import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  FILTERING_LEVELS,
  PRICES_MICRO_USD,
  SEARCH_LIMITS,
  type CaptionItem,
  type ClipItem,
} from '../../../shared/api-types';
import type { Account } from '../../accounts/accounts';
import type { ServiceContext } from '../../context';
import { captionContent } from '../../indexer/caption';
import { cosine, lexicalVector } from '../../search/query-text';
import type { SegmentFilter, SegmentHit } from '../../search/search-segments';
import { badRequest, rateLimited, success } from '../envelope';
import { accountOf } from './auth';
import { imagePage, searchBody, type SearchBody } from './search-body';
import { registerSearchImage } from './search-image';
import { parseOr400 } from './validate';

function topK(body: SearchBody): number {
  if (body.search_type === 'BY_CAPTION') {
    const k = body.top_k ?? SEARCH_LIMITS.captionTopKDefault;
    if (k < 1 || k > SEARCH_LIMITS.captionTopKMax)
      throw badRequest(`top_k must be between 1 and ${SEARCH_LIMITS.captionTopKMax} for BY_CAPTION`);
    return k;
  }
  const k = body.top_k ?? SEARCH_LIMITS.topKDefault;
  if (k < 1 || k > SEARCH_LIMITS.topKMax) throw badRequest(`top_k must be between 1 and ${SEARCH_LIMITS.topKMax}`);
  return k;
}

export function userNamespace(accountId: number): string {
  return createHash('sha256').update(`reelsync-account:${accountId}`).digest('hex').slice(0, 32);
}

export function registerSearch(app: FastifyInstance, ctx: ServiceContext): void {
  const run = async (account: Account, body: SearchBody): Promise<unknown> => {
    const k = topK(body);
    const wait = ctx.limits.search.take(`search:${account.id}`);
    if (wait) throw rateLimited(wait);
    const filter: SegmentFilter = {
      accountId: account.id,
      folderId: ctx.folders.resolveFilter(account.id, body.folder_id, body.unique_id),
      videoNos: body.video_nos,
      tag: body.tag,
      cameraModel: body.camera_tag,
      takenSince: body.datetime_taken,
      near:
        body.latitude !== undefined && body.longitude !== undefined
          ? { latitude: body.latitude, longitude: body.longitude, radiusKm: body.radius_km }
          : undefined,
    };
    const min = body.filtering_level ? FILTERING_LEVELS[body.filtering_level] : 0;
    const text = body.search_param;
    ctx.billing.charge(account.id, PRICES_MICRO_USD.search, 'search', body.search_type);
    switch (body.search_type) {
      case 'BY_CLIP':
      case 'BY_VIDEO':
        return (await ctx.search.search({ text, field: 'all', filter, limit: k }))
          .filter((h) => h.score >= min)
          .map((h) => clipItem(h, true));
      case 'BY_AUDIO':
        return (await ctx.search.search({ text, field: 'transcript', filter, limit: k }))
          .filter((h) => h.score >= min)
          .map((h) => clipItem(h, false));
      case 'BY_CAPTION': {
        const qv = lexicalVector(body.search_param);
        return (await ctx.search.search({ text, field: 'caption', filter, limit: k }))
          .map((h) => captionItem(h, qv, account.id))
          .filter((c) => c.score >= min)
          .sort((a, b) => b.score - a.score);
      }
      case 'BY_IMAGE': {
        const hits = (await ctx.search.search({ text, field: 'all', filter, limit: SEARCH_LIMITS.topKMax })).filter(
          (h) => h.score >= min && h.keyframeBlob,
        );
        const pageSize = k;
        const page = hits
          .slice((body.page - 1) * pageSize, body.page * pageSize)
          .map((h) => ({ ...h, datetimeTaken: null, cameraModel: null, latitude: null, longitude: null }));
        return imagePage(hits.length, body.page, pageSize, page);
      }
    }
  };

  app.post('/search', async (request) => success(await run(accountOf(request), parseOr400(searchBody, request.body))));

  registerSearchImage(app, ctx, run);

  app.get('/search_audio_transcripts', async (request) => {
    const q = parseOr400(
      z.object({
        query: z.string().trim().min(1, 'query must not be empty').max(1000),
        page: z.coerce.number().int().min(1).default(1),
        page_size: z.coerce.number().int().min(1).max(100, 'page_size must be at most 100').default(20),
      }),
      request.query,
    );
    const account = accountOf(request);
    const wait = ctx.limits.search.take(`search:${account.id}`);
    if (wait) throw rateLimited(wait);
    ctx.billing.charge(account.id, PRICES_MICRO_USD.search, 'search', 'audio transcripts');
    const hits = await ctx.search.search({
      text: q.query,
      field: 'transcript',
      filter: { accountId: account.id },
      limit: SEARCH_LIMITS.topKMax,
    });
    return success({
      current_page: q.page,
      page_size: q.page_size,
      total_count: hits.length,
      items: hits.slice((q.page - 1) * q.page_size, q.page * q.page_size).map((h) => clipItem(h, false)),
    });
  });
}

function clipItem(h: SegmentHit, withKeyframe: boolean): ClipItem {
  const item: ClipItem = {
    videoNo: h.videoNo,
    videoName: h.videoName,
    startTime: String(h.start),
    endTime: String(h.end),
    score: h.score,
  };
  if (h.matched) item.matched = h.matched;
  if (h.transcript) item.audio_ts = h.transcript;
  if (h.videoBlob) {
    item.video_bucket = h.bucket;
    item.video_blob = h.videoBlob;
  }
  if (withKeyframe && h.keyframeBlob) {
    item.keyframe_bucket = h.bucket;
    item.keyframe_blob = h.keyframeBlob;
  }
  return item;
}

function captionItem(h: SegmentHit, queryVector: Float32Array, accountId: number): CaptionItem {
  const stored = h.captionVector
    ? new Float32Array(h.captionVector.buffer, h.captionVector.byteOffset, h.captionVector.byteLength / 4)
    : lexicalVector(captionContent(h.caption));
  const similarity = Math.max(0, Math.min(1, cosine(queryVector, stored)));
  const item: CaptionItem = {
    video_no: h.videoNo,
    text: h.caption,
    vector: Array.from(stored, (x) => Math.round(x * 1e6) / 1e6),
    user_id: userNamespace(accountId),
    start_time: h.start,
    end_time: h.end,
    score: Math.round(similarity * 10_000) / 10_000,
  };
  if (h.matched) item.matched = h.matched;
  if (h.keyframeBlob) {
    item.keyframe_bucket = h.bucket;
    item.keyframe_blob = h.keyframeBlob;
  }
  return item;
}
