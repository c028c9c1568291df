import { z } from 'zod';
import { MAX_RANKED_ROWS } from '../ranking/ranked-match';
import type { SearchField, SegmentFilter, SegmentHit } from '../segment-types';
import { ftsPhrases, parseQuery, QUERY_CAPS, type Expander, type ParsedQuery } from '../query/query-text';
import { FLOOR_IDF, ftsIdf, K1, merge, splitCommon, splitMany, sumHits, type RankedRow } from '../ranking/ranked-match';
import type { SearchRequest } from '../workers/search-protocol';
import type { SegmentSearch } from '../workers/search-pool';
import { scoreRankedRows, type RankedSegmentRow } from '../ranking/segment-scoring';
import { prepared } from '../../storage/pg-sql';
import type { Sql } from '../../storage/sql';
import { fuseSemantic } from '../ranking/semantic-fusion';
import { bm25OfInstances, bm25Scorer, type Bm25Phrase, type Column } from './bm25';
import { onlyStatusFilter } from '../segment-filter';
import { bothMatch, butNotMatch, candidates, scopeOf, type Match } from './pg-candidates';
import { PostingPrefetch, postingReader } from './pg-word-rank';
import { intArray } from './pg-array-literals';
import { PhraseHits } from './pg-phrase-hits';
import { withNearestWords } from './pg-fuzzy';
import { porterStem } from './porter';

/**
 * Segment search on PostgreSQL (migration 8), with the SQLite engine's (search-segments.ts) semantics: the same
 * parsed query and filters, rows ranked by FTS5's bm25 (computed from the matching rows' tsvectors: bm25.ts) over the
 * caller's segments only, the same calibrated score and `matched`. One addition: a query word no segment of the
 * account contains also stands for its nearest indexed word by trigram similarity (pg-fuzzy.ts).
 *
 * Each phrase's rows in the account (its idf) come from the counts migration 16 keeps (pg-phrase-hits.ts).
 * Candidates come from the narrow segment_search_rank (migration 18: pg-candidates.ts), newest first, at most MAX_RANKED_ROWS per ranking, split
 * by phrase as ranked-match.ts splits them (rankLevel): the rarer phrases' rows are ranked exactly even when the
 * common ones match more rows than one ranking reads; rows matched only by words in half the account's segments or
 * more (bm25 says nothing of them) come only when the others are too few, from the newest 4 x wanted.
 */
export class PgSegmentSearch implements SegmentSearch {
  constructor(
    private readonly sql: Sql,
    private readonly expander?: Expander,
  ) {}

  async search(request: SearchRequest): Promise<SegmentHit[]> {
    const keyword = await searchSegmentsPg(
      this.sql,
      parseQuery(request.text, this.expander),
      request.field,
      request.filter,
      request.limit,
    );
    return fuseSemantic(this.sql, request, keyword);
  }
}

interface Phrase extends Bm25Phrase {
  /** The phrase's words as the query has them (before stemming). */
  words: string[];
  idf: number;
}

const countRow = z.object({ n: z.number() });
const segmentRow = z.object({
  id: z.number(),
  video_no: z.string(),
  video_name: z.string(),
  bucket: z.string(),
  blob: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  keyframe_blob: z.string().nullable(),
  start_time: z.number(),
  end_time: z.number(),
  caption: z.string(),
  transcript: z.string(),
  ocr_text: z.string(),
  caption_vector: z.instanceof(Uint8Array).nullable(),
  names: z.string(),
  label_text: z.string(),
  labels: z.string(),
  shot_quality: z.number().nullable(),
});

/**
 * `searchSegments` (search-segments.ts) on PostgreSQL. `postings: false` ranks from rank rows only, as before
 * migration 19 (for `bench search-pg`'s same-run comparison; the hits are the same).
 */
export async function searchSegmentsPg(
  sql: Sql,
  parsed: ParsedQuery,
  field: SearchField,
  filter: SegmentFilter,
  limit: number,
  { postings: usePostings = true }: { postings?: boolean } = {},
): Promise<SegmentHit[]> {
  const only: Column | undefined = field === 'all' ? undefined : field === 'caption' ? 'caption' : 'transcript';
  const weight = field === 'all' ? '' : field === 'caption' ? ':A' : ':B';
  const accountId = filter.accountId;
  if (ftsPhrases(parsed).length === 0) return [];
  const tsquery = (words: string[], restrict: string): string =>
    words.map((w) => `'${porterStem(w).replace(/\\/g, '\\\\').replace(/'/g, "''")}'${restrict}`).join(' <-> ');
  /**
   * Phrases as a condition on segment_search_rank f: any of them inside one column, as FTS5 matches (never across two:
   * `terms` has a `|` between columns, so no phrase runs from one into the next).
   */
  const matchOf = (phrases: { words: string[] }[]): Match => ({
    sql: `(f.terms @@ CAST(? AS tsquery))`,
    args: [phrases.map((p) => `(${tsquery(p.words, weight)})`).join(' | ')],
    words: phrases.every((p) => p.words.length === 1)
      ? { any: [phrases.map((p) => porterStem(p.words[0]!))], none: [] }
      : undefined,
  });
  const count = async (match: Match): Promise<number> =>
    countRow.parse(
      await sql.get(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM segment_search_rank f WHERE f.account_id = ? AND ${match.sql} LIMIT ?) m`,
        accountId,
        ...match.args,
        MAX_RANKED_ROWS + 1,
      ),
    ).n;

  const hitsOf = new PhraseHits(sql, accountId, field, (words) => count(matchOf([{ words }])));

  // A word no segment contains stands also for its nearest indexed word (while the phrase budget lasts).
  const room = QUERY_CAPS.ftsPhrases - ftsPhrases(parsed).length;
  const terms = parsed.terms.filter((term) => indexable([term]));
  // Every word the phrases hold (expansions too) in the same lookup as the terms and the account's totals: one round
  // trip, not three.
  const parsedPhrases = ftsPhrases(parsed).map((fts) => fts.slice(1, -1).split(' ').filter(Boolean));
  const words = parsedPhrases.flat();
  const scope = scopeOf(filter);
  // Whole posting lists come with the counts (one round trip fewer) when the search will read them.
  const prefetch = usePostings ? PostingPrefetch.of({ accountId, field, scope }, parsedPhrases) : undefined;
  await hitsOf.load(
    [...new Set([...terms, ...words.filter((w) => indexable([w]))])].map((word) => [word]),
    prefetch,
  );
  const account = hitsOf.totals();
  if (account.rows === 0) return [];
  const missing: string[] = [];
  for (const term of terms) if (missing.length < room && hitsOf.of([term]) === 0) missing.push(term);
  const query = missing.length ? await withNearestWords(sql, accountId, parsed, missing) : parsed;

  // PostgreSQL indexes no word this long (nor reads one in a tsquery): no segment can contain it.
  const phrases = ftsPhrases(query)
    .map((fts) => fts.slice(1, -1).split(' ').filter(Boolean))
    .filter(indexable);
  await hitsOf.load(phrases);
  const live: Phrase[] = [];
  for (const words of phrases) {
    const hits = hitsOf.of(words);
    if (hits === 0) continue;
    const lexemes = words.map(porterStem);
    live.push({ words, lexemes, hits, idf: ftsIdf(account.rows, hits) });
  }
  if (live.length === 0) return [];

  const lexemes = [...new Set(live.flatMap((p) => p.lexemes))];
  const wanted = Math.min(5000, limit * 2);
  const score = bm25Scorer(live, account, only);
  const scoreWords = bm25OfInstances(live, account);
  const source = { sql, accountId, field, scope, phraseLexemes: live.map((p) => p.lexemes[0]!), prefetched: prefetch };
  const postings = usePostings ? postingReader(source, live, account.rows, onlyStatusFilter(filter)) : undefined;
  const ranked = async (match: Match, window: number): Promise<RankedRow[]> => {
    const read = match.words && postings?.(match.words, window);
    return read
      ? (await read).map((c) => ({ id: c.id, rank: scoreWords(c.f, c.tokens) }))
      : (await candidates(sql, accountId, match, scope, window, lexemes)).map((c) => ({ id: c.id, rank: score(c) }));
  };
  const rank = async (match: Match, window: number): Promise<RankedRow[]> =>
    (await ranked(match, window)).sort((a, b) => a.rank - b.rank || a.id - b.id).slice(0, wanted);
  const found = await rankLevel({ matchOf, rank, wanted }, live, []);
  return scoreRankedRows(await readRows(sql, accountId, found), query, field, filter, limit);
}

interface Ranking {
  matchOf(phrases: Phrase[]): Match;
  /** The best rows by bm25 over every live phrase among the newest `window` rows matching. */
  rank(match: Match, window: number): Promise<RankedRow[]>;
  wanted: number;
}

/**
 * The best rows matching any of `phrases` and none of `without`: ranked-match.ts's rankLevel on PostgreSQL, so a
 * ranking over more than MAX_RANKED_ROWS rows windows only the rows its many-row phrases alone match, as on SQLite.
 * The rarer phrases' (E) rows are ranked exactly, with every phrase's share (rank scores all of them); E AND C is
 * ranked apart only when E's rows are more than one ranking reads; the rows of the common phrases (C) alone come
 * one level down, and only when they could reach the best: they score under C's bound.
 */
async function rankLevel(r: Ranking, phrases: Phrase[], without: Phrase[]): Promise<RankedRow[]> {
  const excluded = without.length ? r.matchOf(without) : null;
  const match = (m: Match): Match => (excluded ? butNotMatch(m, excluded) : m);
  const floored = phrases.filter((p) => p.idf === FLOOR_IDF);
  const scored = phrases.filter((p) => p.idf !== FLOOR_IDF);
  if (scored.length === 0) return r.rank(match(r.matchOf(phrases)), 4 * r.wanted);
  const split = splitCommon(scored, r.wanted) ?? splitMany(scored, MAX_RANKED_ROWS);
  const rare = split?.rare ?? scored;
  const common = [...(split?.common ?? []), ...floored];
  if (common.length === 0) return r.rank(match(r.matchOf(phrases)), MAX_RANKED_ROWS);
  // Rows of C alone score under this bound (the margin covers floating point).
  const bound = (K1 + 1) * common.reduce((s, p) => s + p.idf, 0) * (1 + 1e-9);
  const [e, c] = [r.matchOf(rare), r.matchOf(common)];
  let found = await r.rank(match(e), MAX_RANKED_ROWS);
  if (sumHits(rare) > MAX_RANKED_ROWS) {
    const both = bothMatch(e, c);
    found = merge(found, await r.rank(match(both), MAX_RANKED_ROWS), r.wanted);
  }
  if (found.length === r.wanted && -found[r.wanted - 1]!.rank > bound) return found;
  return merge(found, await rankLevel(r, common, [...without, ...rare]), r.wanted);
}

/** PostgreSQL's longest lexeme is 2047 bytes: to_tsvector leaves longer words out of every tsvector. */
const MAX_WORD_BYTES = 2047;

function indexable(words: string[]): boolean {
  return words.every((w) => Buffer.byteLength(w) < MAX_WORD_BYTES);
}

/** The segments and their videos for ranked ids, in the same order. */
async function readRows(sql: Sql, accountId: number, ranked: RankedRow[]): Promise<RankedSegmentRow[]> {
  if (ranked.length === 0) return [];
  const found = z.array(segmentRow).parse(
    await sql.all(
      prepared(`SELECT s.id, v.video_no, v.video_name, v.bucket, v.blob, v.latitude, v.longitude, s.keyframe_blob, s.start_time,
         s.end_time, s.caption, s.transcript, s.ocr_text, s.caption_vector, s.labels, f.names, f.label_text,
         s.shot_quality
       FROM segment_search f JOIN segments s ON s.id = f.segment_id JOIN videos v ON v.id = s.video_id
       WHERE f.segment_id = ANY(CAST(? AS BIGINT[])) AND v.account_id = ? AND v.status = 'PARSE'`),
      intArray(ranked.map((r) => r.id)),
      accountId,
    ),
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  return ranked.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [{ ...row, rank: r.rank }] : [];
  });
}
