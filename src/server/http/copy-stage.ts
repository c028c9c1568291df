import { Transform, type Writable } from 'node:stream';

/**
 * A pass-through stage that also writes every chunk to `copy`, waiting while `copy` is full (so the slower of the
 * two paces the body and memory stays bounded), and ends `copy` with the stream without waiting for it to finish: its
 * owner awaits that. An error of `copy` fails the pipeline.
 */
export function copyStage(copy: Writable): Transform {
  const stage = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (copy.write(chunk)) {
        done(null, chunk);
        return;
      }
      const drained = (): void => {
        copy.off('error', failed);
        done(null, chunk);
      };
      const failed = (err: Error): void => {
        copy.off('drain', drained);
        done(err);
      };
      copy.once('drain', drained);
      copy.once('error', failed);
    },
    flush(done) {
      copy.end();
      done();
    },
  });
  // Kept for the copy's whole life: an error after the stage ended (completing the store) is its owner's to await.
  copy.on('error', (err) => {
    if (!stage.writableFinished && !stage.destroyed) stage.destroy(err);
  });
  return stage;
}
