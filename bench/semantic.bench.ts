import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuseSemantic } from '../src/server/semantic/semantic-rank';
import { openServiceDb, type Db } from '../src/server/storage/db';
import { SqliteSql } from '../src/server/storage/sqlite-sql';
import type { Benchmark } from './harness';

const SEGMENTS = 100_000;
const PER_VIDEO = 10;
/** ViT-B/32 CLIP's embedding size. */
const DIM = 512;
const QUERIES = 30;
const MODEL = 'bench/clip';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function unitVector(rand: () => number): Float32Array {
  const v = Float32Array.from({ length: DIM }, () => rand() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** One account's segments, each with a keyframe embedding of the model. */
function fill(db: Db, rand: () => number): void {
  const now = Date.now();
  db.prepare("INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('bench', 'x', ?)").run(now);
  db.prepare("INSERT INTO folders (account_id, name, is_default, created_at) VALUES (1, 'Default', 1, ?)").run(now);
  const insertVideo = db.prepare(
    `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, blob, content_type, size, sha256, created_at)
     VALUES (?, 1, 1, ?, ?, 'PARSE', 'reelsync-1', NULL, 'video/mp4', 1, 'x', ?)`,
  );
  const insertSegment = db.prepare(
    "INSERT INTO segments (video_id, idx, start_time, end_time, keyframe_blob, caption) VALUES (?, ?, ?, ?, ?, 'a shot')",
  );
  const insertVector = db.prepare('INSERT INTO segment_embeddings (segment_id, model, vector) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let v = 0; v < SEGMENTS / PER_VIDEO; v++) {
      const videoId = Number(insertVideo.run(`VI${v}`, `clip-${v}.mp4`, `clip-${v}.mp4`, now).lastInsertRowid);
      for (let i = 0; i < PER_VIDEO; i++) {
        const id = Number(insertSegment.run(videoId, i, i * 5, i * 5 + 5, `keyframes/VI${v}/${i}.jpg`).lastInsertRowid);
        insertVector.run(id, MODEL, Buffer.from(unitVector(rand).buffer));
      }
    }
  })();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * The semantic side of a search (semantic-rank.ts): the flat scan of an account's keyframe vectors and the fusion,
 * against reading the same rows' vectors from SQLite and doing nothing with them, in the same run.
 */
const bench: Benchmark = {
  name: 'semantic',
  description: `semantic fusion: flat scan of ${SEGMENTS.toLocaleString('en')} keyframe vectors (${DIM} float32) of one account, top 100`,
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'reelsync-bench-semantic-'));
    const db = openServiceDb(dir);
    try {
      const rand = rng(11);
      fill(db, rand);
      const read = db.prepare(
        `SELECT e.segment_id AS id, e.vector, v.latitude, v.longitude FROM segment_embeddings e
         JOIN segments s ON s.id = e.segment_id JOIN videos v ON v.id = s.video_id
         WHERE e.model = ? AND v.account_id = ? AND v.status = 'PARSE'`,
      );
      const ours: number[] = [];
      const base: number[] = [];
      const first: number[] = [];
      const sql = new SqliteSql(db);
      const time = async (into: number[], fn: () => unknown): Promise<void> => {
        const start = process.hrtime.bigint();
        await fn();
        into.push(Number(process.hrtime.bigint() - start) / 1e6);
      };
      for (let q = 0; q < QUERIES + 3; q++) {
        const vector = Array.from(unitVector(rand));
        const request = {
          text: `query ${q}`,
          field: 'all' as const,
          filter: { accountId: 1 },
          limit: 100,
          semantic: { model: MODEL, vector, floor: 0, ceiling: 0.2 },
        };
        // The first fills the search worker's vector cache (vector-cache.ts); the first three warm the page cache.
        await time(q === 0 ? first : q < 3 ? [] : ours, () => fuseSemantic(sql, request, []));
        await time(q < 3 ? [] : base, () => read.all(MODEL, 1));
      }
      ours.sort((a, b) => a - b);
      base.sort((a, b) => a - b);
      const p = (xs: number[], n: number): string => `${percentile(xs, n).toFixed(1)} ms`;
      return [
        {
          what: `semantic scan and fusion per query, ${QUERIES} queries, ${SEGMENTS.toLocaleString('en')} segments`,
          lines: [
            `reelsync fuseSemantic (cached vectors, dot products, top 100, hits read): p50 ${p(ours, 50)}  p95 ${p(ours, 95)}`,
            `baseline: SQLite reads the same rows' vectors, nothing else:         p50 ${p(base, 50)}  p95 ${p(base, 95)}`,
            `ratio at p50 (baseline / ours): ${(percentile(base, 50) / percentile(ours, 50)).toFixed(2)}x`,
            `first query of the account (reads its vectors into the worker's cache): ${p(first, 50)}`,
          ],
        },
      ];
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
