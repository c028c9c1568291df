import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuseSemantic } from '../src/server/search/ranking/semantic-fusion';
import { openServiceDb } from '../src/server/storage/db';
import { openPgSql } from '../src/server/storage/open-pg-sql';
import type { Sql, SqlParam } from '../src/server/storage/sql';
import { SqliteSql } from '../src/server/storage/sqlite-sql';
import { LocalBlobStore } from '../src/server/storage/local-blob-store';
import { postgresBinDir, startPostgres } from '../test/helpers/postgres';
import type { BenchResult, Benchmark } from './harness';
import { measureEmptyLooks } from './embed-look';
import { percentile } from '../test/helpers/stats';
import { rng } from '../test/helpers/seeded-random';

/** Segments of the account per engine: PostgreSQL sends every vector over a socket, so its baseline is slower. */
const SEGMENTS = { sqlite: 100_000, postgres: 20_000 } as const;
const PER_VIDEO = 10;
/** ViT-B/32 CLIP's embedding size. */
const DIM = 512;
const QUERIES = 30;
const MODEL = 'bench/clip';
/** Rows per INSERT while filling. */
const BATCH = 200;

function unitVector(rand: () => number): Float32Array {
  const v = Float32Array.from({ length: DIM }, () => rand() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Inserts `rows` into `table`, BATCH rows per statement. */
async function insertRows(tx: Sql, table: string, columns: string[], rows: SqlParam[][]): Promise<void> {
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows.slice(at, at + BATCH);
    await tx.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => row).join(', ')}`,
      ...batch.flat(),
    );
  }
}

/** One account's segments, each with a keyframe embedding of the model (ids given, so batches need no RETURNING). */
async function fill(sql: Sql, segments: number, rand: () => number): Promise<void> {
  const now = Date.now();
  await sql.transaction(async (tx) => {
    await tx.run("INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (1, 'bench', 'x', ?)", now);
    await tx.run(
      "INSERT INTO folders (id, account_id, name, is_default, created_at) VALUES (1, 1, 'Default', 1, ?)",
      now,
    );
    const videos = Array.from({ length: segments / PER_VIDEO }, (_, v) => [
      ...[v + 1, `VI${v}`, `clip-${v}.mp4`, `clip-${v}.mp4`, now, 1, 1],
      ...['PARSE', 'reelsync-1', 'video/mp4', 1, 'x'],
    ]);
    const videoColumns = ['id', 'video_no', 'video_name', 'original_name', 'created_at', 'account_id', 'folder_id'];
    const fileColumns = ['status', 'bucket', 'content_type', 'size', 'sha256'];
    await insertRows(tx, 'videos', [...videoColumns, ...fileColumns], videos);
    const segmentRows = Array.from({ length: segments }, (_, s) => {
      const i = s % PER_VIDEO;
      const video = Math.floor(s / PER_VIDEO);
      return [s + 1, video + 1, i, i * 5, i * 5 + 5, `keyframes/VI${video}/${i}.jpg`, 'a shot'];
    });
    await insertRows(
      tx,
      'segments',
      ['id', 'video_id', 'idx', 'start_time', 'end_time', 'keyframe_blob', 'caption'],
      segmentRows,
    );
    const vectors = Array.from({ length: segments }, (_, s) => [s + 1, MODEL, Buffer.from(unitVector(rand).buffer)]);
    await insertRows(tx, 'segment_embeddings', ['segment_id', 'model', 'vector'], vectors);
  });
}

/** Our fusion per query against the engine merely reading the same rows' vectors, alternating, on one database. */
async function measure(sql: Sql, engine: string, segments: number): Promise<BenchResult> {
  const rand = rng(11);
  await fill(sql, segments, rand);
  const ours: number[] = [];
  const base: number[] = [];
  const first: number[] = [];
  const time = async (into: number[], fn: () => Promise<unknown>): Promise<void> => {
    const start = process.hrtime.bigint();
    await fn();
    into.push(Number(process.hrtime.bigint() - start) / 1e6);
  };
  const read = () =>
    sql.all(
      `SELECT e.segment_id AS id, e.vector, v.latitude, v.longitude FROM segment_embeddings e
       JOIN segments s ON s.id = e.segment_id JOIN videos v ON v.id = s.video_id
       WHERE e.model = ? AND v.account_id = ? AND v.status = 'PARSE'`,
      MODEL,
      1,
    );
  for (let q = 0; q < QUERIES + 3; q++) {
    const vector = Array.from(unitVector(rand));
    const request = {
      text: `query ${q}`,
      field: 'all' as const,
      filter: { accountId: 1 },
      limit: 100,
      semantic: { model: MODEL, vector, floor: 0, ceiling: 0.2 },
    };
    // The first fills the search process's vector cache (vector-cache.ts); the first three warm the page cache.
    await time(q === 0 ? first : q < 3 ? [] : ours, () => fuseSemantic(sql, request, []));
    await time(q < 3 ? [] : base, read);
  }
  ours.sort((a, b) => a - b);
  base.sort((a, b) => a - b);
  // The keyframes are never read: nothing is pending.
  const looks = await measureEmptyLooks(sql, new LocalBlobStore(join(tmpdir(), 'reelsync-bench-no-blobs')), MODEL);
  const p = (xs: number[], n: number): string => `${percentile(xs, n).toFixed(1)} ms`;
  const count = segments.toLocaleString('en');
  return {
    what: `${engine}: semantic scan and fusion per query, ${QUERIES} queries, ${count} segments`,
    lines: [
      `reelsync fuseSemantic (cached vectors, dot products, top 100, hits read): p50 ${p(ours, 50)}  p95 ${p(ours, 95)}`,
      `baseline: ${engine} reads the same rows' vectors, nothing else: p50 ${p(base, 50)}  p95 ${p(base, 95)}`,
      `ratio at p50 (baseline / ours): ${(percentile(base, 50) / percentile(ours, 50)).toFixed(2)}x`,
      `first query of the account (reads its vectors into the cache): ${p(first, 50)}`,
      `a worker's look for keyframes to embed, none pending: past the mark ${looks.pastMarkMs.toFixed(1)} ms vs from the first segment ${looks.fullMs.toFixed(1)} ms (${(looks.fullMs / looks.pastMarkMs).toFixed(0)}x)`,
    ],
  };
}

/**
 * The semantic side of a search (semantic-rank.ts): the flat scan of an account's keyframe vectors and the fusion,
 * against reading the same rows' vectors and doing nothing with them, in the same run, on SQLite and (where its
 * binaries are) PostgreSQL.
 */
const bench: Benchmark = {
  name: 'semantic',
  description: `semantic fusion: flat scan of one account's keyframe vectors (${DIM} float32), top 100, on each engine`,
  async run() {
    const results: BenchResult[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'reelsync-bench-semantic-'));
    const db = openServiceDb(dir);
    try {
      results.push(await measure(new SqliteSql(db), 'SQLite', SEGMENTS.sqlite));
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
    if (postgresBinDir) {
      const server = await startPostgres();
      try {
        const sql = await openPgSql(await server.createDatabase());
        try {
          results.push(await measure(sql, 'PostgreSQL (local)', SEGMENTS.postgres));
        } finally {
          await sql.close();
        }
      } finally {
        await server.stop();
      }
    }
    return results;
  },
};

export default bench;
