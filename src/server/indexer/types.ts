/** Shared shapes of the analysis half of the indexer: what analyzers receive and return. */

export type Availability = { ok: true } | { ok: false; reason: string };

export interface Label {
  label: string;
  score: number;
  /** Which analyzer (and model) produced it, e.g. "objects:centernet". */
  source: string;
}

export interface Face {
  /** Face descriptor; its length and meaning depend on `model` (face-api: 128 numbers, Euclidean distance). */
  descriptor: number[];
  /** The model that computed `descriptor` (see analyzers/face-match.ts): descriptors of different models are never compared. */
  model: string;
  /** [x, y, width, height] in keyframe pixels. */
  box: [number, number, number, number];
  score: number;
}

export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** One segment's representative frame as the frame analyzers see it. */
export interface SegmentFrame {
  index: number;
  start: number;
  end: number;
  keyframePath: string;
  width: number;
  height: number;
  /** The keyframe decoded to packed RGB (width * height * 3 bytes); decoded once, shared by analyzers. */
  rgb(): Promise<Uint8Array>;
  /**
   * A second frame of the segment, from its middle, extracted on first call; null when the segment is too short for
   * it to be another moment than the keyframe. OCR reads it too: titles fade in after a cut, and tesseract misreads
   * text over a busy background in one frame and not in the next. Motion compares it with the keyframe.
   */
  laterFrame?(): Promise<FrameImage | null>;
  /**
   * Drops the decoded pixels and deletes the later frame's files. Analyzers share both, so none frees them: the runner
   * calls this once every frame analyzer is done with the segment.
   */
  release?(): Promise<void>;
}

/** An extra frame file of the segment's size, with its pixels read on first call. */
export interface FrameImage {
  path: string;
  /** Packed RGB, width * height * 3 bytes of the segment's frame size. */
  rgb(): Promise<Uint8Array>;
}

export interface FrameFindings {
  ocrText?: string;
  labels?: Label[];
  faces?: Face[];
  /** 0..1, how sharp and well exposed the keyframe is (analyzers/shot-quality.ts): search breaks ties with it. */
  shotQuality?: number;
}

/** The whole video as an audio analyzer sees it (speech needs context across segment boundaries). */
export interface MediaInput {
  videoPath: string;
  workDir: string;
  durationSeconds: number;
  hasAudio: boolean;
  transcriptionPrompt?: string;
}

interface AnalyzerBase {
  name: string;
  version: string;
  /** Whether the engine can run on this machine; loads models on first call, so it may take a second. */
  available(): Promise<Availability>;
  /** Frees workers and models. Safe to call twice. */
  close(): Promise<void>;
}

/** Runs once per segment on its keyframe (OCR, objects, faces). */
export interface FrameAnalyzer extends AnalyzerBase {
  kind: 'frame';
  /**
   * True when its findings depend on the keyframe's pixels alone (segment.rgb(), not the later frame nor the times):
   * then a segment whose keyframe shows the same picture as the segment before's (a still shot split by length) gets
   * the findings of that segment again instead of a second run of the model.
   */
  keyframeOnly?: boolean;
  analyze(segment: SegmentFrame, signal?: AbortSignal): Promise<FrameFindings>;
}

/** Runs once per video on its sound track; words are mapped to segments by time afterwards. */
export interface AudioAnalyzer extends AnalyzerBase {
  kind: 'audio';
  analyze(media: MediaInput, signal?: AbortSignal): Promise<TimedWord[]>;
}

export type Analyzer = FrameAnalyzer | AudioAnalyzer;

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
