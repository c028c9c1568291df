import { join } from 'node:path';
import { decodeRgb, imageSize } from '../../src/server/indexer/frames';
import { runTool } from '../../src/server/indexer/process';
import type { SegmentFrame } from '../../src/server/indexer/types';

/**
 * A keyframe as the indexer would see it: ffmpeg writes the output of `args` (inputs and filters) as a JPEG in `dir`,
 * read back as a segment frame whose pixels are decoded once.
 */
export async function stillFrame(dir: string, name: string, args: string[]): Promise<SegmentFrame> {
  const keyframePath = join(dir, `${name}.jpg`);
  await runTool('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...args,
    '-frames:v',
    '1',
    '-q:v',
    '4',
    keyframePath,
  ]);
  const { width, height } = await imageSize(keyframePath);
  let rgb: Promise<Uint8Array> | null = null;
  return {
    index: 0,
    start: 0,
    end: 1,
    keyframePath,
    width,
    height,
    rgb: () => (rgb ??= decodeRgb(keyframePath, width, height)),
  };
}

/**
 * An ffmpeg filter that renders a photograph as a drawing: colours posterized to 4 levels a channel, multiplied by the
 * photo's edges drawn as dark ink lines. nsfwjs scores such renders 0.85-0.98 Drawing, after video compression too.
 */
export const INKED_POSTER =
  "split[flat][ink];[flat]lutrgb=r='floor(val/64)*64+32':g='floor(val/64)*64+32':b='floor(val/64)*64+32'[p];" +
  '[ink]edgedetect=low=0.1:high=0.3,negate[e];[p][e]blend=all_mode=multiply';
