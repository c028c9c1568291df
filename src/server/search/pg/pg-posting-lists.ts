/**
 * One word's postings as a search reads them from segment_search_words: for each segment holding the word (newest
 * first), its id, its word count and the word's instances in it (weighted or raw, as the searched field counts them).
 */
export interface PostingList {
  ids: number[];
  tokens: number[];
  counts: number[];
}

/** A segment found in posting lists: its word count and each list's instances in it (0 where a list lacks it). */
export interface PostedRow {
  id: number;
  tokens: number;
  counts: Float64Array;
}

/**
 * A posting list from the comma-separated texts PostgreSQL's string_agg sends (null for a word in no row): ordered
 * newest first here, whatever order they came in. Throws on text that is not such a list.
 */
export function postingList(ids: string | null, tokens: string | null, counts: string | null): PostingList {
  const list = { ids: numbers(ids), tokens: numbers(tokens), counts: numbers(counts) };
  if (list.tokens.length !== list.ids.length || list.counts.length !== list.ids.length)
    throw new Error(`posting list: ${list.ids.length} ids but ${list.tokens.length} and ${list.counts.length} values`);
  if (list.ids.every((id, i) => i === 0 || list.ids[i - 1]! > id)) return list;
  const order = list.ids.map((_, i) => i).sort((a, b) => list.ids[b]! - list.ids[a]!);
  return {
    ids: order.map((i) => list.ids[i]!),
    tokens: order.map((i) => list.tokens[i]!),
    counts: order.map((i) => list.counts[i]!),
  };
}

/**
 * The newest `window` segments whose lists' masks together, under `checked`, are `wanted` (a list's mask: the bits
 * it stands for), read by merging the lists newest first, as FTS5 merges its per-word lists.
 */
export function mergePostings(
  lists: readonly PostingList[],
  masks: readonly number[],
  checked: number,
  wanted: number,
  window: number,
): PostedRow[] {
  const at = new Int32Array(lists.length);
  const rows: PostedRow[] = [];
  while (rows.length < window) {
    let id = -Infinity;
    for (let i = 0; i < lists.length; i++) {
      const next = lists[i]!.ids[at[i]!];
      if (next !== undefined && next > id) id = next;
    }
    if (id === -Infinity) break;
    let mask = 0;
    for (let i = 0; i < lists.length; i++) if (lists[i]!.ids[at[i]!] === id) mask |= masks[i]!;
    const keep = (mask & checked) === wanted;
    const row: PostedRow = { id, tokens: 0, counts: keep ? new Float64Array(lists.length) : NO_COUNTS };
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      const k = at[i]!;
      if (list.ids[k] !== id) continue;
      if (keep) {
        row.tokens = Math.max(row.tokens, list.tokens[k]!);
        row.counts[i] = list.counts[k]!;
      }
      at[i] = k + 1;
    }
    if (keep) rows.push(row);
  }
  return rows;
}

const NO_COUNTS = new Float64Array(0);

function numbers(text: string | null): number[] {
  if (text === null || text === '') return [];
  return text.split(',').map((piece) => {
    const n = Number(piece);
    if (piece === '' || !Number.isFinite(n)) throw new Error(`posting list: "${piece}" is no number`);
    return n;
  });
}
