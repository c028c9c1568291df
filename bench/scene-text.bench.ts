import type { ReadWord } from '../src/server/indexer/analyzers/scene-text/ctc';
import { keptWords } from '../src/server/indexer/analyzers/scene-text/kept-words';
import { PaddleReader } from '../src/server/indexer/analyzers/scene-text/paddle-reader';
import {
  drawnWords,
  FRAME,
  HELD_OUT_TEXT_FRAMES,
  NO_TEXT_FRAMES,
  sceneTextFrame,
  TEXT_FRAMES,
} from '../test/fixtures/scene-text-frames';
import { compare, type BenchResult, type Benchmark } from './harness';
import { TesseractReader } from './tesseract-baseline';

/** A word as search sees it: letters and digits, lower-cased. */
const key = (word: string): string => (word.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join('');

/** What tesseract.js kept until now (analyzers/ocr.ts before PP-OCR): confidence 60, two letters or digits. */
function tesseractAsShipped(lines: ReadWord[][]): string[] {
  return lines
    .flat()
    .filter((w) => w.confidence >= 0.6 && (w.text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2)
    .map((w) => w.text);
}

interface Tally {
  right: number;
  found: number;
  drawn: number;
  invented: number;
  framesWithInvented: number;
  frames: number;
  misread: string[];
}

const tally = (): Tally => ({
  right: 0,
  found: 0,
  drawn: 0,
  invented: 0,
  framesWithInvented: 0,
  frames: 0,
  misread: [],
});

/** Counts the words read right against the drawn ones, as multisets of search keys. */
function score(t: Tally, drawn: string[], read: string[]): void {
  const left = drawn.map(key);
  const words = read.map(key).filter(Boolean);
  t.frames++;
  t.drawn += left.length;
  t.found += words.length;
  const wrong: string[] = [];
  for (const w of words) {
    const i = left.indexOf(w);
    if (i >= 0) {
      left.splice(i, 1);
      t.right++;
    } else wrong.push(w);
  }
  if (drawn.length === 0) {
    t.invented += words.length;
    if (words.length > 0) t.framesWithInvented++;
  }
  if (wrong.length || left.length) t.misread.push(`+[${wrong.join(' ')}] -[${left.join(' ')}]`);
}

function line(engine: string, t: Tally): string {
  if (t.drawn === 0) {
    return `${engine.padEnd(22)} invented ${t.invented} words on ${t.framesWithInvented}/${t.frames} photographs${t.misread.length ? `: ${t.misread.join(' ')}` : ''}`;
  }
  const precision = t.found ? t.right / t.found : 1;
  return `${engine.padEnd(22)} precision ${precision.toFixed(3)} (${t.right}/${t.found})  recall ${(t.right / t.drawn).toFixed(3)} (${t.right}/${t.drawn})${t.misread.length ? `  misses ${t.misread.join(' ')}` : ''}`;
}

const ENGINES = ['tesseract.js', 'PP-OCRv4'] as const;

const bench: Benchmark = {
  name: 'scene-text',
  description:
    'words read right and wrong by tesseract.js (as shipped) and PP-OCRv4 on drawn slates, lower thirds and signs over real photographs, and words invented on real photographs without text; time per 640x360 keyframe, warm',
  async run() {
    const frames = [...TEXT_FRAMES, ...NO_TEXT_FRAMES, ...HELD_OUT_TEXT_FRAMES];
    const heldOut = new Set(HELD_OUT_TEXT_FRAMES);
    const HELD_OUT = 'held out: slate, lower third, signs';
    const group = (frame: (typeof frames)[number]): string => (heldOut.has(frame) ? HELD_OUT : frame.kind);
    const files = await Promise.all(frames.map(sceneTextFrame));
    const tesseract = new TesseractReader();
    const paddle = new PaddleReader();
    await Promise.all([tesseract.start(), paddle.start()]);
    const tallies = new Map<string, Tally>();
    const at = (engine: string, set: string): Tally => {
      const k = `${set}\0${engine}`;
      if (!tallies.has(k)) tallies.set(k, tally());
      return tallies.get(k)!;
    };
    let tesseractMs = 0;
    let paddleMs = 0;
    try {
      for (const [i, frame] of frames.entries()) {
        const { jpeg, rgb } = files[i]!;
        let start = performance.now();
        const tLines = await tesseract.read(jpeg);
        tesseractMs += performance.now() - start;
        start = performance.now();
        const pLines = await paddle.read({ data: rgb, ...FRAME });
        paddleMs += performance.now() - start;
        const drawn = drawnWords(frame);
        const tWords = tesseractAsShipped(tLines);
        const pWords = keptWords(pLines);
        score(at(ENGINES[0], group(frame)), drawn, tWords);
        score(at(ENGINES[1], group(frame)), drawn, pWords);
        process.stderr.write(`\rscene-text: ${i + 1}/${frames.length} frames`);
      }
      process.stderr.write('\n');
    } finally {
      await Promise.all([tesseract.close(), paddle.close()]);
    }
    const sets = ['slate', 'lower third', 'sign', 'no text', HELD_OUT];
    const results: BenchResult[] = sets.map((kind) => ({
      what: `${kind} (${at(ENGINES[0], kind).frames} frames)`,
      lines: ENGINES.map((e) => line(e, at(e, kind))),
    }));
    results.push(
      compare(
        `time per frame, ${frames.length} frames of ${FRAME.width}x${FRAME.height}`,
        { label: 'PP-OCRv4 (1 thread)', seconds: paddleMs / 1000, amount: frames.length, unit: 'frames' },
        { label: 'tesseract.js (as shipped)', seconds: tesseractMs / 1000, amount: frames.length, unit: 'frames' },
      ),
    );
    return results;
  },
};

export default bench;
