import type { Availability, FrameAnalyzer, FrameFindings, SegmentFrame } from '../types';
import { keptWords } from './scene-text/kept-words';
import { PaddleReader } from './scene-text/paddle-reader';

/**
 * Two frames show the same picture when no 16 x 16 block differs by more than this mean (0..255 per channel). The
 * frames of a still shot differ by up to 7 (compression, and the later frame is compared before its JPEG is made);
 * a title fading in, or anything moving, changes some blocks by 20 and more.
 */
const BLOCK = 16;
const SAME_PICTURE_BLOCK_DIFF = 12;

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
 * Scene text with PaddleOCR's PP-OCRv4 (scene-text/): text regions are found first and only those are read, so a
 * photograph without text reads as no words at all. Each segment's keyframe is read, and its later frame too when
 * that shows another picture (a title fading in after the cut); the two reads are merged. The models load once per
 * process and stay loaded across segments and videos.
 */
export class OcrAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'ocr';
  private readonly reader = new PaddleReader();
  readonly version = `${this.reader.version} keyframe+middle`;

  async available(): Promise<Availability> {
    try {
      await this.reader.start();
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: `PP-OCR could not start: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  /** The last picture read and its words: the next segment of a still shot shows it again, and is not read again. */
  private last: { rgb: Uint8Array; width: number; height: number; words: string[] } | null = null;

  private async read(rgb: Uint8Array, segment: SegmentFrame): Promise<string[]> {
    const { width, height } = segment;
    const last = this.last;
    if (last && last.width === width && last.height === height && !picturesDiffer(last.rgb, rgb, width, height))
      return last.words;
    const words = keptWords(await this.reader.read({ data: rgb, width, height }));
    this.last = { rgb, width, height, words };
    return words;
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    // ffmpeg extracts the later frame while the keyframe is read.
    const pending = segment.laterFrame?.();
    // Awaited below; this only keeps a failed keyframe read from leaving a failed extraction unhandled.
    pending?.catch(() => {});
    const keyframe = await segment.rgb();
    const reads = [await this.read(keyframe, segment)];
    const later = await pending;
    if (later) {
      const laterRgb = await later.rgb();
      if (picturesDiffer(keyframe, laterRgb, segment.width, segment.height))
        reads.push(await this.read(laterRgb, segment));
    }
    return { ocrText: mergeReads(reads) };
  }

  async close(): Promise<void> {
    this.last = null;
    await this.reader.close();
  }
}
