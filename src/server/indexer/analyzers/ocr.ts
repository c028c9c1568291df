import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { z } from 'zod';
import type { Availability, FrameAnalyzer, FrameFindings, SegmentFrame } from '../types';

// Not named `require`: the bundle of the service must not redeclare the CommonJS `require` its build shims in.
const nodeRequire = createRequire(import.meta.url);

/** Words tesseract is less sure of than this are dropped: on natural images it reads texture as "|" and "ii". */
const MIN_WORD_CONFIDENCE = 60;

/**
 * Two frames show the same picture when no 16 x 16 block differs by more than this mean (0..255 per channel). The
 * frames of a still shot differ by up to 7 (compression, and the later frame is compared before its JPEG is made);
 * a title fading in, or anything moving, changes some blocks by 20 and more.
 */
const BLOCK = 16;
const SAME_PICTURE_BLOCK_DIFF = 12;

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
  const pkg = z.object({ version: z.string() }).parse(nodeRequire(`${name}/package.json`));
  return pkg.version;
}

/** The bundled English model (LSTM, integer-quantised "best"); never fetched from a CDN. */
function englishDataPath(): string {
  return join(dirname(nodeRequire.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** The confident words of a page, in reading order. */
export function confidentWords(page: unknown, minConfidence = MIN_WORD_CONFIDENCE): string[] {
  const parsed = pageSchema.parse(page);
  const words: string[] = [];
  for (const block of parsed.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const text = word.text.trim();
          // A lone character is nearly always texture read as a glyph.
          if (word.confidence >= minConfidence && (text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2) words.push(text);
        }
      }
    }
  }
  return words;
}

/** A word as search sees it: letters and digits, lower-cased ("MARKET|" and "market" are one word). */
function wordKey(word: string): string {
  return (word.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

/**
 * The words of several reads of one segment as one text: the read with the most words in its own order (so a title
 * read whole stays a phrase), then the words only the other reads found, each once.
 */
export function mergeReads(reads: string[][]): string {
  const ordered = reads
    .map((words, i) => ({ words, i }))
    .sort((a, b) => b.words.length - a.words.length || a.i - b.i)
    .map((r) => r.words);
  const [primary = [], ...others] = ordered;
  const seen = new Set(primary.map(wordKey));
  const merged = [...primary];
  for (const words of others) {
    for (const word of words) {
      const key = wordKey(word);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(word);
    }
  }
  return merged.join(' ');
}

/** Whether two frames of one size (packed RGB) differ anywhere: the largest mean difference of a 16 x 16 block. */
export function picturesDiffer(a: Uint8Array, b: Uint8Array, width: number, height: number): boolean {
  if (a.length !== b.length || a.length !== width * height * 3) return true;
  const limit = SAME_PICTURE_BLOCK_DIFF * BLOCK * BLOCK * 3;
  for (let by = 0; by < height; by += BLOCK) {
    for (let bx = 0; bx < width; bx += BLOCK) {
      let sum = 0;
      const rowBytes = (Math.min(bx + BLOCK, width) - bx) * 3;
      for (let y = by; y < Math.min(by + BLOCK, height); y++) {
        const from = (y * width + bx) * 3;
        for (let i = from; i < from + rowBytes; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
      }
      if (sum > limit) return true;
    }
  }
  return false;
}

/**
 * OCR with tesseract.js: one worker (its own thread) kept alive across segments and videos. Each segment's keyframe
 * is read, and its later frame too when that shows another picture (a title fading in, a moving background that
 * hid the text from tesseract on the keyframe); the two reads are merged.
 */
export class OcrAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'ocr';
  readonly version = `tesseract.js ${packageVersion('tesseract.js')} eng-4.0.0_best_int keyframe+middle`;
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

  private async read(path: string): Promise<string[]> {
    const worker = await this.start();
    const { data } = await worker.recognize(path, {}, { blocks: true, text: false });
    return confidentWords(data);
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    // ffmpeg extracts the later frame while tesseract reads the keyframe.
    const pending = segment.laterFrame?.();
    // Awaited below; this only keeps a failed keyframe read from leaving a failed extraction unhandled.
    pending?.catch(() => {});
    const reads = [await this.read(segment.keyframePath)];
    const later = await pending;
    if (later && picturesDiffer(await segment.rgb(), await later.rgb(), segment.width, segment.height)) {
      reads.push(await this.read(later.path));
    }
    return { ocrText: mergeReads(reads) };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker).terminate();
  }
}
