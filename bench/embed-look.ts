import pino from 'pino';
import { EmbedBacklog } from '../src/server/semantic/embed-backlog';
import { EmbedClaims } from '../src/server/semantic/embed-claims';
import { EmbeddingStore } from '../src/server/semantic/embedding-store';
import type { Embedder } from '../src/server/semantic/clip-embedder';
import type { BlobStore } from '../src/server/storage/blob-store';
import type { Sql } from '../src/server/storage/sql';
import { median } from '../test/helpers/stats';

const LOOKS = 9;

/** Nothing is pending in the looks measured: a keyframe given to the model means the bench measured something else. */
const refusingEmbedder: Embedder = {
  dim: 512,
  embedImages: () => Promise.reject(new Error('a look with nothing pending embedded a keyframe')),
  embedText: () => Promise.reject(new Error('not used')),
  close: () => Promise.resolve(),
};

/**
 * A worker's look for keyframes to embed (every semantic.pollMs on a team server) when every keyframe has its vector:
 * the walk from the first segment (a new backlog's first pass) against a pass that starts past the mark of a clean one.
 */
export async function measureEmptyLooks(
  sql: Sql,
  blobs: BlobStore,
  model: string,
): Promise<{ fullMs: number; pastMarkMs: number }> {
  const log = pino({ level: 'silent' });
  const backlog = () => new EmbedBacklog(new EmbeddingStore(sql), new EmbedClaims(sql, 'bench', 60_000), blobs, log);
  const time = async (fn: () => Promise<void>): Promise<number> => {
    const start = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const drain = (b: EmbedBacklog) => b.drain(model, () => Promise.resolve(refusingEmbedder));
  const full: number[] = [];
  const pastMark: number[] = [];
  const kept = backlog();
  await drain(kept); // its first pass, from the first segment, sets the mark
  for (let i = 0; i < LOOKS; i++) {
    full.push(await time(() => drain(backlog())));
    pastMark.push(await time(() => drain(kept)));
  }
  return { fullMs: median(full), pastMarkMs: median(pastMark) };
}
