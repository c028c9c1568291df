import type { LibraryClient, SearchRequest } from '../api/client';
import type { SearchHit } from '../../shared/contract/library';
import type { searchRequestSchema } from '../../shared/contract/library';
import type { z } from 'zod';
import type { LocalOriginals } from '../sync';

type Req = z.output<typeof searchRequestSchema>;

export function searchBody(req: Req): SearchRequest {
  const body: SearchRequest = { search_param: req.query, search_type: req.type, top_k: req.topK };
  if (req.folderId !== undefined) body.folder_id = req.folderId;
  if (req.tag !== undefined) body.tag = req.tag;
  if (req.camera !== undefined) body.camera_tag = req.camera;
  if (req.takenAfter !== undefined) body.datetime_taken = req.takenAfter;
  if (req.gps) {
    body.latitude = req.gps.latitude;
    body.longitude = req.gps.longitude;
    body.radius_km = req.gps.radiusKm;
  }
  if (req.filteringLevel !== undefined) body.filtering_level = req.filteringLevel;
  return body;
}

/** Runs a search and turns the service's two result shapes into one list of hits, each with its local original. */
export async function runSearch(
  client: LibraryClient,
  originals: LocalOriginals,
  req: Req,
  signal?: AbortSignal,
): Promise<{ hits: SearchHit[]; tookMs: number }> {
  const started = Date.now();
  const result = await client.search(searchBody(req), signal);
  const hits: Omit<SearchHit, 'localPath'>[] = result.map((item) => {
    if ('video_no' in item) {
      return {
        id: `${item.video_no}@${item.start_time}-${item.end_time}`,
        videoNo: item.video_no,
        videoName: null,
        start: item.start_time,
        end: item.end_time,
        score: item.score,
        text: item.text,
        // Our service adds the segment's keyframe and why it matched; the cloud's caption items have neither.
        keyframe:
          item.keyframe_bucket && item.keyframe_blob
            ? { bucket: item.keyframe_bucket, blob: item.keyframe_blob }
            : null,
        ...(item.matched ? { why: item.matched } : {}),
        ...(item.missing?.length ? { missing: item.missing } : {}),
      };
    }
    const start = Number(item.startTime);
    const end = Number(item.endTime);
    return {
      id: `${item.videoNo}@${start}-${end}`,
      videoNo: item.videoNo,
      videoName: item.videoName,
      start,
      end,
      score: item.score,
      text: item.audio_ts ?? null,
      keyframe:
        item.keyframe_bucket && item.keyframe_blob ? { bucket: item.keyframe_bucket, blob: item.keyframe_blob } : null,
      ...(item.matched ? { why: item.matched } : {}),
      ...(item.missing?.length ? { missing: item.missing } : {}),
    };
  });
  const paths = originals.pathsOf(hits.map((h) => h.videoNo));
  return { hits: hits.map((h) => ({ ...h, localPath: paths.get(h.videoNo) ?? null })), tookMs: Date.now() - started };
}
