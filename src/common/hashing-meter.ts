import type { Hash } from 'node:crypto';
import { Transform } from 'node:stream';

/** A pass-through stage that feeds every chunk to `hash` and tells `onChunk` its size, for pipelines that check bytes. */
export function hashingMeter(hash: Hash, onChunk: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      onChunk(chunk.length);
      done(null, chunk);
    },
  });
}
