import { z } from 'zod';
import { indexedVideoChunks } from '../indexed-video-chunks';
import { optionalRow, parsedRows } from '../../storage/rows';
import type { Sql } from '../../storage/sql';

/** One account's keyframe vectors of one model, in one matrix (row i is segment ids[i]). */
export interface AccountVectors {
  ids: number[];
  matrix: Float32Array;
  dim: number;
}

interface Entry extends AccountVectors {
  version: number;
  /** Count and sum of the ids held: whether the account's rows changed when the model's version did. */
  stamp: string;
}

/** Accounts whose vectors a search process keeps (~2 KB per segment each, for 512 numbers). */
const MAX_ACCOUNTS = 2;
/** Videos whose vectors one statement reads (~2 KB each): the whole account never sits in memory twice. */
const VIDEOS_PER_READ = 64;

const versionRow = z.object({ version: z.number().int() });
const stampRow = z.object({ n: z.number().int(), s: z.number().int() });
const vectorRow = z.object({ id: z.number().int(), vector: z.instanceof(Uint8Array) });

/**
 * The account's vectors of a model, reached from its videos: CROSS JOIN keeps that order on SQLite (its planner would
 * rather walk the model's vectors of every account); PostgreSQL plans it as any inner join.
 */
const ACCOUNT_ROWS = `FROM videos v CROSS JOIN segments s CROSS JOIN segment_embeddings e
  WHERE v.account_id = ? AND v.status = 'PARSE' AND s.video_id = v.id AND e.model = ? AND e.segment_id = s.id`;

/**
 * The vectors a search process scans, read once and kept while the database does not change them: reading 100k
 * vectors costs far more than the dot products (bench/semantic.bench.ts). The model's row of
 * segment_embedding_versions (bumped by triggers in the transaction of every change: migration 011) tells in one
 * primary-key read, on either engine and from any process, that some vector of the model changed; only then the
 * account's rows are counted (count and id sum) to see whether its own vectors did.
 */
export class VectorCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly sql: Sql) {}

  async vectors(accountId: number, model: string, dim: number): Promise<AccountVectors> {
    const key = `${accountId}\0${model}\0${dim}`;
    // Read before the vectors: a change committed in between makes the next search look again, never the reverse.
    const version = await this.version(model);
    const cached = this.entries.get(key);
    if (cached && cached.version === version) return this.touch(key, cached);
    const stamp = stampRow.parse(
      await this.sql.get(`SELECT COUNT(*) AS n, COALESCE(SUM(e.segment_id), 0) AS s ${ACCOUNT_ROWS}`, accountId, model),
    );
    if (cached && cached.stamp === stampText(stamp.n, stamp.s)) return this.touch(key, { ...cached, version });
    return this.touch(key, { ...(await this.read(accountId, model, dim, stamp.n)), version });
  }

  /** The account's vectors of `dim` numbers (rows of another size are another model's export: skipped). */
  private async read(accountId: number, model: string, dim: number, expected: number): Promise<Omit<Entry, 'version'>> {
    const ids: number[] = [];
    let bytes: Uint8Array = new Uint8Array(expected * dim * 4);
    // Count and id sum of every row read, skipped ones too: the stamp compares with the database's count of them.
    let count = 0;
    let sum = 0;
    for await (const videoIds of indexedVideoChunks(this.sql, accountId, VIDEOS_PER_READ)) {
      const rows = await this.sql.all(
        `SELECT e.segment_id AS id, e.vector ${ACCOUNT_ROWS} AND v.id IN (${videoIds.map(() => '?').join(',')})`,
        accountId,
        model,
        ...videoIds,
      );
      for (const row of parsedRows(vectorRow, rows)) {
        count += 1;
        sum += row.id;
        if (row.vector.byteLength !== dim * 4) continue;
        const at = ids.length * dim * 4;
        if (at + dim * 4 > bytes.byteLength) bytes = grown(bytes, at + dim * 4);
        bytes.set(row.vector, at);
        ids.push(row.id);
      }
    }
    const matrix = new Float32Array(bytes.buffer, 0, ids.length * dim);
    return { ids, matrix, dim, stamp: stampText(count, sum) };
  }

  private async version(model: string): Promise<number> {
    const row = optionalRow(
      versionRow,
      await this.sql.get('SELECT version FROM segment_embedding_versions WHERE model = ?', model),
    );
    return row?.version ?? 0;
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

function stampText(count: number, sum: number): string {
  return `${count}:${sum}`;
}

/** `bytes` copied into a buffer of at least `need` bytes (rows committed after the count was taken). */
function grown(bytes: Uint8Array, need: number): Uint8Array {
  const next = new Uint8Array(Math.max(need, bytes.byteLength * 2));
  next.set(bytes);
  return next;
}
