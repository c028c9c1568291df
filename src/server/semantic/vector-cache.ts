import { z } from 'zod';
import type { Db } from '../storage/db';

/** One account's keyframe vectors of one model, in one matrix (row i is segment ids[i]). */
export interface AccountVectors {
  ids: number[];
  matrix: Float32Array;
  dim: number;
}

interface Entry extends AccountVectors {
  dataVersion: number;
  stamp: string;
}

/** Accounts whose vectors a search worker keeps (~2 KB per segment each, for 512 numbers). */
const MAX_ACCOUNTS = 2;

const stampRow = z.object({ n: z.number().int(), s: z.number().int() });
const vectorRow = z.object({ id: z.number().int(), vector: z.instanceof(Uint8Array) });

const ACCOUNT_ROWS = `FROM segment_embeddings e JOIN segments s ON s.id = e.segment_id JOIN videos v ON v.id = s.video_id
  WHERE e.model = ? AND v.account_id = ? AND v.status = 'PARSE'`;

/**
 * The vectors a search worker scans, read once and kept while the database does not change them: reading 100k
 * vectors from SQLite costs far more than the dot products (bench/semantic.bench.ts). SQLite's data_version tells,
 * for free, that another connection wrote something; only then the account's rows are counted (count and id sum) to
 * see whether its vectors changed.
 */
export class VectorCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly db: Db) {}

  vectors(accountId: number, model: string, dim: number): AccountVectors {
    const key = `${accountId}\0${model}\0${dim}`;
    const dataVersion = z
      .number()
      .int()
      .parse(this.db.pragma('data_version', { simple: true }));
    const cached = this.entries.get(key);
    if (cached && cached.dataVersion === dataVersion) return this.touch(key, cached);
    const stamp = stampRow.parse(
      this.db
        .prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(e.segment_id), 0) AS s ${ACCOUNT_ROWS}`)
        .get(model, accountId),
    );
    const stampText = `${stamp.n}:${stamp.s}`;
    if (cached && cached.stamp === stampText) return this.touch(key, { ...cached, dataVersion });
    const ids: number[] = [];
    const matrix = new Float32Array(stamp.n * dim);
    for (const raw of this.db
      .prepare(`SELECT e.segment_id AS id, e.vector ${ACCOUNT_ROWS}`)
      .iterate(model, accountId)) {
      const row = vectorRow.parse(raw);
      if (row.vector.byteLength !== dim * 4 || ids.length >= stamp.n) continue;
      matrix.set(new Float32Array(Uint8Array.from(row.vector).buffer), ids.length * dim);
      ids.push(row.id);
    }
    return this.touch(key, { ids, matrix, dim, dataVersion, stamp: stampText });
  }

  private touch(key: string, entry: Entry): Entry {
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const old of this.entries.keys()) {
      if (this.entries.size <= MAX_ACCOUNTS) break;
      this.entries.delete(old);
    }
    return entry;
  }
}
