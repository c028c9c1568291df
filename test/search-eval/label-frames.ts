import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DrawingAnalyzer, ObjectsAnalyzer, OcrAnalyzer, PeopleAnalyzer } from '../../src/server/indexer/analyzers';
import type { Label, SegmentFrame } from '../../src/server/indexer/types';
import { KEYFRAME_WIDTH } from '../../src/server/indexer/scene-cuts';
import { ensureEvalClip, packagedPhoto } from '../fixtures/eval-media';
import type { LabelledFrame } from './labelled-frames';

const run = promisify(execFile);
/** The evaluation clips' frame (1280x720, the photo fitted with bars), scaled like the indexer's keyframes. */
const WIDTH = KEYFRAME_WIDTH;
const HEIGHT = (KEYFRAME_WIDTH * 9) / 16;
const FIT = `scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,setsar=1,scale=${WIDTH}:${HEIGHT}`;

/** A labelled frame's pixels as the indexer sees them: packed RGB at keyframe size. */
export async function frameRgb(frame: LabelledFrame): Promise<Uint8Array> {
  const input =
    'photo' in frame
      ? ['-i', await packagedPhoto(frame.pkg, frame.photo)]
      : ['-ss', String(frame.at), '-i', await ensureEvalClip(frame.clip)];
  const { stdout } = await run(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      ...input,
      '-frames:v',
      '1',
      '-vf',
      FIT,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  if (stdout.length !== WIDTH * HEIGHT * 3) throw new Error(`decoded ${stdout.length} bytes for ${frameName(frame)}`);
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}

export function frameName(frame: LabelledFrame): string {
  return 'photo' in frame ? frame.photo : `${frame.clip}@${frame.at}s`;
}

export interface FrameLabels {
  labels: Label[];
  ocrText: string;
  /** Faces stored for the frame (face search, the caption's "face"). */
  faces: number;
}

/** Runs the label-making frame analyzers (objects with their colours, people, drawing, scene text) on each frame. */
export async function labelFrames(frames: LabelledFrame[]): Promise<FrameLabels[]> {
  const analyzers = [new ObjectsAnalyzer(), new PeopleAnalyzer(), new DrawingAnalyzer(), new OcrAnalyzer()];
  for (const a of analyzers) {
    const ok = await a.available();
    if (!ok.ok) throw new Error(`${a.name}: ${ok.reason}`);
  }
  try {
    const out: FrameLabels[] = [];
    for (const [index, frame] of frames.entries()) {
      const rgb = await frameRgb(frame);
      const segment: SegmentFrame = {
        index,
        start: 0,
        end: 1,
        keyframePath: '',
        width: WIDTH,
        height: HEIGHT,
        rgb: () => Promise.resolve(rgb),
      };
      const labels: Label[] = [];
      let ocrText = '';
      let faces = 0;
      for (const a of analyzers) {
        const found = await a.analyze(segment);
        labels.push(...(found.labels ?? []));
        faces += found.faces?.length ?? 0;
        if (found.ocrText) ocrText = found.ocrText;
      }
      out.push({ labels, ocrText, faces });
    }
    return out;
  } finally {
    for (const a of analyzers) await a.close();
  }
}
