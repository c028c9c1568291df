import { captionContent } from '../../indexer/caption';
import { matchReason } from './match-reason';
import { coverageOf, matchedWordsOf, type ParsedQuery } from '../query/query-text';
import { haversineKm } from '../geo';
import type { SearchField, SegmentFilter, SegmentHit } from '../segment-types';
import { coverageLabel, segmentLabels } from './segment-labels';

/**
 * The calibrated score of ranked segment rows, engine-free: what both engines' searches (search-segments.ts, search/pg/)
 * do with the rows their full-text index ranked.
 */

/** A ranked row with what scoring reads: the segment, its video, and its indexed names and label words. */
export interface RankedSegmentRow {
  id: number;
  video_no: string;
  video_name: string;
  bucket: string;
  blob: string | null;
  latitude: number | null;
  longitude: number | null;
  keyframe_blob: string | null;
  start_time: number;
  end_time: number;
  caption: string;
  transcript: string;
  ocr_text: string;
  caption_vector: Uint8Array | null;
  names: string;
  label_text: string;
  labels: string;
  /** FTS5's bm25 (negative, lower is better). */
  rank: number;
}

const NAME_WEIGHT = 0.5;
/**
 * The strength of a row whose bm25 says nothing (FTS5 floors the idf of a word in half the rows or more: every such row
 * would tie) is this x its match density (query words / words of the matched text), so a short exact match still
 * ranks above a long text that mentions the word once. Elsewhere bm25 alone ranks: it already weighs the same things.
 */
const DENSITY_WEIGHT = 0.1;
/** bm25 strengths below this are a floored idf's, not a real difference. */
const NO_BM25 = 1e-4;

interface Candidate {
  hit: SegmentHit;
  nameOnly: boolean;
  explain: () => string;
}

/** score = 0.7 x coverage + 0.3 x strength (search-segments.ts); the best `limit` hits, each with its `matched`. */
export function scoreRankedRows(
  rows: readonly RankedSegmentRow[],
  query: ParsedQuery,
  field: SearchField,
  filter: SegmentFilter,
  limit: number,
): SegmentHit[] {
  const covered = coverageOf(query);
  const matched = matchedWordsOf(query);
  const ranked: Candidate[] = [];
  for (const r of rows) {
    if (
      filter.near &&
      r.latitude !== null &&
      r.longitude !== null &&
      haversineKm(filter.near, r) > filter.near.radiusKm
    )
      continue;
    const caption = captionContent(r.caption);
    const labels = field === 'all' ? segmentLabels(r.labels) : [];
    const text =
      field === 'transcript'
        ? r.transcript
        : field === 'caption'
          ? caption
          : [caption, r.transcript, r.ocr_text].join(' ');
    const content = field === 'all' ? covered(text, labels.map(coverageLabel)) : covered(text);
    // A match on the file, folder, camera or tag names alone says less about this moment than one in what it shows.
    const names = field === 'all' ? NAME_WEIGHT * covered(r.names) : 0;
    const nameOnly = content === 0 && names > 0;
    const words = matched(nameOnly ? r.names : field === 'all' ? `${text} ${r.label_text}` : text);
    const density = words.total ? words.hits / words.total : 0;
    const bm25Strength = 1 - Math.exp(r.rank / 4);
    const strength = bm25Strength < NO_BM25 ? DENSITY_WEIGHT * density : bm25Strength;
    const score = Math.round((0.7 * Math.max(content, names) + 0.3 * strength) * 10_000) / 10_000;
    const hit: SegmentHit = {
      segmentId: r.id,
      videoNo: r.video_no,
      videoName: r.video_name,
      bucket: r.bucket,
      videoBlob: r.blob,
      keyframeBlob: r.keyframe_blob,
      start: r.start_time,
      end: r.end_time,
      caption: r.caption,
      transcript: r.transcript,
      captionVector: r.caption_vector,
      score: Math.min(1, Math.max(0, score)),
      matched: '',
    };
    const texts = { ocrText: r.ocr_text, transcript: r.transcript, caption, labels, names: r.names };
    ranked.push({ hit, nameOnly, explain: () => matchReason(matched, texts, field) });
  }
  return belowContent(ranked, limit).map((r) => {
    r.hit.matched = r.explain();
    return r.hit;
  });
}

/** Content hits first, names-only hits after them with scores held under the lowest content hit's. */
function belowContent(ranked: Candidate[], limit: number): Candidate[] {
  const top = ranked
    .sort((a, b) => Number(a.nameOnly) - Number(b.nameOnly) || b.hit.score - a.hit.score)
    .slice(0, limit);
  const content = top.filter((r) => !r.nameOnly);
  const floor = content.length ? content[content.length - 1]!.hit.score : 1;
  for (const r of top)
    if (r.nameOnly && r.hit.score >= floor) r.hit.score = Math.max(0, Math.round((floor - 0.0001) * 10_000) / 10_000);
  return top;
}
