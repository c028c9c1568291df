/** What both search engines (sqlite/, pg/) take and give: the filter, the field searched, a hit, an indexed text. */

export interface SegmentFilter {
  accountId: number;
  folderId?: number;
  videoNos?: string[];
  tag?: string;
  cameraModel?: string;
  takenSince?: string;
  near?: { latitude: number; longitude: number; radiusKm: number };
}

export interface SegmentHit {
  segmentId: number;
  videoNo: string;
  videoName: string;
  bucket: string;
  videoBlob: string | null;
  keyframeBlob: string | null;
  start: number;
  end: number;
  caption: string;
  transcript: string;
  captionVector: Uint8Array | null;
  score: number;
  /** Why it matched, for a person (match-reason.ts): "on screen: 'SCENE 12'", "seen: car", "file name"... */
  matched: string;
  /** The query's words (and quoted phrases) this hit has nothing for, in the query's order (query-text.ts queryWords). */
  missing: string[];
  /** 0: every query word found; 1: some (or only the semantic model's likeness); 2: only the names (segment-scoring.ts). */
  tier: number;
}

export type SearchField = 'all' | 'transcript' | 'caption';

/** What the full-text index holds for one segment, column by column. */
export interface SegmentText {
  caption: string;
  transcript: string;
  ocrText: string;
  labels: string;
  names: string;
}
