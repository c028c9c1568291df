import { FILTERING_LEVELS } from '../../../shared/api-types';
import { captionContent } from '../../indexer/caption';
import { matchReason, type MatchTexts, type WordMatcher } from './match-reason';
import { coverageDetailOf, matchedWordsOf, queryWords, type ParsedQuery } from '../query/query-text';
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
  /** 0..1 sharpness x exposure of the keyframe (indexer/analyzers/shot-quality.ts); NULL if indexed before it was measured. */
  shot_quality: number | null;
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
  /** How sure the analyzers were of what matched (tie-break): see evidenceOf. */
  evidence: number;
  /** The shot's picture quality (tie-break after the evidence): see qualityOf. */
  quality: number;
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
  const covered = coverageDetailOf(query);
  const matched = matchedWordsOf(query);
  const words = queryWords(query);
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
    const found = field === 'all' ? covered(text, labels.map(coverageLabel)) : covered(text);
    const content = found.share;
    // A match on the file, folder, camera or tag names alone says less about this moment than one in what it shows.
    const byName = field === 'all' ? covered(r.names) : undefined;
    const names = byName ? NAME_WEIGHT * byName.share : 0;
    const nameOnly = content === 0 && names > 0;
    const hitWords = matched(nameOnly ? r.names : field === 'all' ? `${text} ${r.label_text}` : text);
    const density = hitWords.total ? hitWords.hits / hitWords.total : 0;
    const bm25Strength = 1 - Math.exp(r.rank / 4);
    const strength = bm25Strength < NO_BM25 ? DENSITY_WEIGHT * density : bm25Strength;
    const raw = Math.min(
      1,
      Math.max(0, Math.round((0.7 * Math.max(content, names) + 0.3 * strength) * 10_000) / 10_000),
    );
    // A find only through a related word (a person for "child") shows something near what was asked: scaled under
    // medium, in the same order.
    const score = !nameOnly && found.related.length > 0 ? underMedium(raw) : raw;
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
      score,
      matched: '',
      missing: nameOnly ? byName!.missing : found.missing,
      tier: nameOnly ? 2 : found.whole ? 0 : 1,
    };
    const texts = { ocrText: r.ocr_text, transcript: r.transcript, caption, labels, names: r.names };
    const evidence = evidenceOf(matched, texts, field);
    const explain = (): string => matchReason(matched, texts, field);
    ranked.push({ hit, evidence, quality: qualityOf(r.shot_quality), explain });
  }
  return inTiers(ranked, limit).map((r) => {
    r.hit.matched = r.explain();
    r.hit.missing = words.filter((w) => r.hit.missing.includes(w));
    return r.hit;
  });
}

/**
 * How sure the analyzers were of what matched, 0..1, for ordering hits of equal score: 1 for words read in the speech
 * or on screen, else the surest matching label's own score (a car detected at 0.9 before one at 0.5).
 */
function evidenceOf(matched: WordMatcher, texts: MatchTexts, field: SearchField): number {
  if (matched(texts.transcript).words.length || (field === 'all' && matched(texts.ocrText).words.length)) return 1;
  let best = 0;
  for (const l of texts.labels) if (l.score > best && matched(l.label).words.length) best = l.score;
  return best;
}

/**
 * The quality a segment indexed before shot quality was measured (NULL) counts as: between what a blurred or badly
 * exposed keyframe reads (under 0.3 on the test photos) and a sharp, well exposed one (0.35-0.75), so such segments
 * are neither put first nor last among measured ones, and tie with each other (then the keyframe and length decide).
 */
const UNMEASURED_QUALITY = 0.3;

/** A stored shot quality, 0..1, or the neutral value for a segment indexed before it was measured. */
function qualityOf(stored: number | null): number {
  return stored === null || !Number.isFinite(stored) ? UNMEASURED_QUALITY : Math.min(1, Math.max(0, stored));
}

/** What else the index knows of a shot's use to an editor: a keyframe to show, a moment long enough to use (to 4 s). */
function shotOf(hit: SegmentHit): number {
  return (hit.keyframeBlob ? 1 : 0) + Math.min(4, Math.max(0, hit.end - hit.start)) / 8;
}

/** What sets two hits of one score apart in their scores, far under the score's own steps (0.0001). */
const TIE_STEP = 0.000001;

/**
 * Hits with every query word first, then partial ones, then names-only ones, each tier's scores held under the lowest
 * of the tier above, so the order is the score order. Equal scores are ordered by the evidence's confidence, then by
 * the shot's picture quality (sharp and well exposed first), then by what else makes a shot usable (a keyframe to
 * show, a longer moment), then by segment id, and set apart by a millionth each: never equal.
 */
function inTiers(ranked: Candidate[], limit: number): Candidate[] {
  const top = ranked
    .sort(
      (a, b) =>
        a.hit.tier - b.hit.tier ||
        b.hit.score - a.hit.score ||
        b.evidence - a.evidence ||
        b.quality - a.quality ||
        shotOf(b.hit) - shotOf(a.hit) ||
        a.hit.segmentId - b.hit.segmentId,
    )
    .slice(0, limit);
  holdUnder(top.map((r) => r.hit));
  return top;
}

/**
 * The highest score of a hit that lacks some of the query's words: just under the medium filtering level, so that
 * medium and high mean "matches what was asked" and a partial match shows at low, with the words it lacks named
 * ("no match for: crash").
 */
export const PARTIAL_MAX_SCORE = FILTERING_LEVELS.medium - 0.0001;

/**
 * A score moved under the medium level, order kept: what is under low stays, the rest is spread between low and
 * medium, so a related find still shows at low (FILTERING_LEVELS).
 */
function underMedium(score: number): number {
  const low = FILTERING_LEVELS.low;
  if (score <= low) return score;
  return Math.round((low + ((PARTIAL_MAX_SCORE - low) * (score - low)) / (1 - low)) * 1e6) / 1e6;
}

/** Hits already in tier order: partial ones held under medium, each score under the hit before it (see inTiers). */
export function holdUnder(hits: SegmentHit[]): void {
  for (const h of hits) if (h.missing.length > 0 && h.score > PARTIAL_MAX_SCORE) h.score = PARTIAL_MAX_SCORE;
  for (let i = 1; i < hits.length; i++) {
    const [prev, h] = [hits[i - 1]!, hits[i]!];
    // Under the hit before: by a score step below a tier above, by a millionth below an equal score.
    const cap = prev.score - (h.tier > prev.tier ? 0.0001 : TIE_STEP);
    if (h.score > cap) h.score = Math.max(0, Math.round(cap * 1e6) / 1e6);
  }
}

/** Hits of two rankings in tier order, then by score and segment, held under each other as one ranking's are. */
export function inTierOrder(hits: SegmentHit[], limit: number): SegmentHit[] {
  const top = hits.sort((a, b) => a.tier - b.tier || b.score - a.score || a.segmentId - b.segmentId).slice(0, limit);
  holdUnder(top);
  return top;
}
