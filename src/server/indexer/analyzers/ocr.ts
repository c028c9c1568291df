import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { z } from 'zod';
import type { Availability, FrameAnalyzer, FrameFindings, SegmentFrame } from '../types';

const require = createRequire(import.meta.url);

/** Words tesseract is less sure of than this are dropped: on natural images it reads texture as "|" and "ii". */
const MIN_WORD_CONFIDENCE = 60;

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

function packageVersion(name: string): string {
  const pkg = z.object({ version: z.string() }).parse(require(`${name}/package.json`));
  return pkg.version;
}

/** The bundled English model (LSTM, integer-quantised "best"); never fetched from a CDN. */
function englishDataPath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** Reads the confident words of a page as lines joined by spaces. */
export function confidentText(page: unknown, minConfidence = MIN_WORD_CONFIDENCE): string {
  const parsed = pageSchema.parse(page);
  const lines: string[] = [];
  for (const block of parsed.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words
          .map((w) => ({ text: w.text.trim(), confidence: w.confidence }))
          // A lone character is nearly always texture read as a glyph.
          .filter((w) => w.confidence >= minConfidence && (w.text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2)
          .map((w) => w.text);
        if (words.length > 0) lines.push(words.join(' '));
      }
    }
  }
  return lines.join(' ');
}

/** OCR of keyframes with tesseract.js: one worker (its own thread) kept alive across segments and videos. */
export class OcrAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'ocr';
  readonly version = `tesseract.js ${packageVersion('tesseract.js')} eng-4.0.0_best_int`;
  private worker: Promise<Worker> | null = null;

  private start(): Promise<Worker> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: englishDataPath(),
      gzip: true,
      cacheMethod: 'none',
    });
    return this.worker;
  }

  async available(): Promise<Availability> {
    try {
      await this.start();
      return { ok: true };
    } catch (err) {
      this.worker = null;
      return { ok: false, reason: `tesseract.js could not start: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    const worker = await this.start();
    const { data } = await worker.recognize(segment.keyframePath, {}, { blocks: true, text: false });
    return { ocrText: confidentText(data) };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker).terminate();
  }
}
