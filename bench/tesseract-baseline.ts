import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { z } from 'zod';
import type { ReadWord } from '../src/server/indexer/analyzers/scene-text/ctc';

// Not named `require`: the bundle of the service must not redeclare the CommonJS `require` its build shims in.
const nodeRequire = createRequire(import.meta.url);

const wordSchema = z.object({ text: z.string(), confidence: z.number() });
const pageSchema = z.object({
  blocks: z
    .array(
      z.object({
        paragraphs: z.array(z.object({ lines: z.array(z.object({ words: z.array(wordSchema) })) })),
      }),
    )
    .nullable(),
});

export function packageVersion(name: string): string {
  return z.object({ version: z.string() }).parse(nodeRequire(`${name}/package.json`)).version;
}

/** The bundled English model (LSTM, integer-quantised "best"); never fetched from a CDN. */
function englishDataPath(): string {
  return join(dirname(nodeRequire.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** The lines of a tesseract page, each as its words with confidence 0..1, in reading order. */
export function pageLines(page: unknown): ReadWord[][] {
  const parsed = pageSchema.parse(page);
  return (parsed.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.map((line) =>
        line.words.map((w) => ({ text: w.text.trim(), confidence: w.confidence / 100 })).filter((w) => w.text !== ''),
      ),
    ),
  );
}

/** tesseract.js reading whole frames: one worker (its own thread) kept alive across frames. */
export class TesseractReader {
  readonly version = `tesseract.js ${packageVersion('tesseract.js')} eng-4.0.0_best_int`;
  private worker: Promise<Worker> | null = null;

  start(): Promise<Worker> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: englishDataPath(),
      gzip: true,
      cacheMethod: 'none',
    });
    this.worker.catch(() => {
      this.worker = null;
    });
    return this.worker;
  }

  /** The lines of an image file. */
  async read(path: string): Promise<ReadWord[][]> {
    const worker = await this.start();
    const { data } = await worker.recognize(path, {}, { blocks: true, text: false });
    return pageLines(data);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker).terminate();
  }
}
