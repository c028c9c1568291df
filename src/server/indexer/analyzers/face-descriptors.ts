import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as TfjsCore from '@tensorflow/tfjs-core';

const nodeRequire = createRequire(import.meta.url);

/**
 * The part of @vladmandic/face-api this module uses, checked at load time. Its bundled type declarations carry their
 * own copy of tfjs' classes, which do not match tfjs-core's, so tensors are passed as `unknown` here.
 */
interface FaceApiModule {
  version: string;
  tf: { engine(): unknown };
  nets: { faceLandmark68Net: FaceApiNet; faceRecognitionNet: FaceApiNet; ageGenderNet: FaceApiNet };
  Rect: new (x: number, y: number, width: number, height: number) => unknown;
  FaceDetection: new (score: number, relativeBox: unknown, imageDims: { width: number; height: number }) => unknown;
  extendWithFaceDetection: <T extends object>(source: T, detection: unknown) => T;
  DetectAllFaceLandmarksTask: new (
    parent: Promise<object[]>,
    input: unknown,
    useTinyLandmarkNet: boolean,
  ) => {
    withAgeAndGender(): { withFaceDescriptors(): PromiseLike<unknown[]> };
  };
}

interface FaceApiNet {
  isLoaded: boolean;
  loadFromDisk(modelDir: string): Promise<void>;
}

function isFaceApiModule(value: unknown): value is FaceApiModule {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<Record<keyof FaceApiModule, unknown>>;
  const nets = m.nets as Partial<Record<string, unknown>> | undefined;
  return (
    typeof m.tf === 'object' &&
    typeof nets?.faceLandmark68Net === 'object' &&
    typeof nets.faceRecognitionNet === 'object' &&
    typeof nets.ageGenderNet === 'object' &&
    typeof m.Rect === 'function' &&
    typeof m.FaceDetection === 'function' &&
    typeof m.extendWithFaceDetection === 'function' &&
    typeof m.DetectAllFaceLandmarksTask === 'function'
  );
}

export interface FaceDescriber {
  faceApi: FaceApiModule;
  version: string;
}

/** A face found by human's detector, in image pixels. */
export interface FaceBox {
  box: [number, number, number, number];
  score: number;
}

/** A point in image pixels. */
export interface Point {
  x: number;
  y: number;
}

/**
 * What face-api reads of a face: its descriptor (128 numbers), estimated age in years and its 68 landmarks (iBUG
 * order: jaw 0-16, brows 17-26, nose 27-35, eyes 36-47, mouth 48-67) in image pixels.
 */
export interface FaceReading {
  descriptor: Float32Array;
  age: number;
  landmarks: Point[];
}

/** A face with its face-api reading, box clipped to the image. */
export type DescribedFace = FaceBox & FaceReading;

/**
 * Loads face-api's node-wasm build and its landmark, recognition and age nets (from the package's `model/` folder, read with
 * fs: no fetch). The build requires `@tensorflow/tfjs` and `@tensorflow/tfjs-backend-wasm` and sets no backend of its
 * own; it must share the tfjs-core instance human runs on, or its tensors would live in another engine: checked here.
 */
export async function loadFaceDescriber(
  tf: typeof TfjsCore,
  packageDir: (name: string) => string,
): Promise<FaceDescriber> {
  const dir = packageDir('@vladmandic/face-api');
  const mod: unknown = nodeRequire(join(dir, 'dist', 'face-api.node-wasm.js'));
  if (!isFaceApiModule(mod)) throw new Error('face-api.node-wasm.js lacks the exports the indexer uses');
  if (mod.tf.engine() !== tf.engine())
    throw new Error("face-api loaded a second copy of @tensorflow/tfjs-core; it must share the indexer's");
  const modelDir = join(dir, 'model');
  for (const net of [mod.nets.faceLandmark68Net, mod.nets.faceRecognitionNet, mod.nets.ageGenderNet])
    if (!net.isLoaded) await net.loadFromDisk(modelDir);
  if (tf.getBackend() !== 'wasm')
    throw new Error(`tfjs backend is ${tf.getBackend()} after loading face-api, expected wasm`);
  return { faceApi: mod, version: `face-api ${mod.version}` };
}

/** Smallest side, in pixels, of a face crop worth describing (after clipping to the image). */
const MIN_FACE_PIXELS = 8;

function clip<T extends FaceBox>(face: T, width: number, height: number): T | null {
  const [x, y, w, h] = face.box;
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(width, Math.round(x + w));
  const y1 = Math.min(height, Math.round(y + h));
  if (x1 - x0 < MIN_FACE_PIXELS || y1 - y0 < MIN_FACE_PIXELS) return null;
  return { ...face, box: [x0, y0, x1 - x0, y1 - y0] };
}

/** face-api's 68 landmark positions as plain points, or null when they are not 68 finite points. */
function readPoints(positions: unknown): Point[] | null {
  if (!Array.isArray(positions) || positions.length !== 68) return null;
  const points: Point[] = [];
  for (const p of positions as unknown[]) {
    const { x, y } = (p ?? {}) as { x?: unknown; y?: unknown };
    if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) return null;
    points.push({ x, y });
  }
  return points;
}

/**
 * 128-number descriptors, ages and landmarks of faces another detector found: face-api's 68-point landmark net runs on
 * each face's crop, the face is re-cropped aligned on its landmarks, and the recognition and age nets read that crop
 * (face-api's own `withFaceLandmarks().withAgeAndGender().withFaceDescriptors()` chain, fed human's boxes instead of its
 * own detector's). The age net (0.4 MB, 112 px) reuses the aligned crop; human's own age comes from faceres (7 MB,
 * 224 px). Boxes are clipped first: face-api shifts landmarks by the unclipped box, so a box reaching past the border
 * would misplace them. `image` is the [height, width, 3] tensor the boxes were found on; it is not disposed here. Each
 * face keeps the fields it came with; one too small to read is left out.
 */
export async function describeFaces<T extends FaceBox>(
  describer: FaceDescriber,
  image: TfjsCore.Tensor3D,
  faces: T[],
): Promise<(T & FaceReading)[]> {
  const [height, width] = image.shape;
  const { faceApi } = describer;
  const kept = faces.map((f) => clip(f, width, height)).filter((f): f is T => f !== null);
  if (kept.length === 0) return [];
  const parents = kept.map((f, index) => {
    const [x, y, w, h] = f.box;
    const relative = new faceApi.Rect(x / width, y / height, w / width, h / height);
    return faceApi.extendWithFaceDetection({ index }, new faceApi.FaceDetection(f.score, relative, { width, height }));
  });
  const results = await new faceApi.DetectAllFaceLandmarksTask(Promise.resolve(parents), image, false)
    .withAgeAndGender()
    .withFaceDescriptors();
  const described: (T & FaceReading)[] = [];
  for (const r of results) {
    const { index, descriptor, age, landmarks } = r as {
      index?: unknown;
      descriptor?: unknown;
      age?: unknown;
      landmarks?: { positions?: unknown };
    };
    const face = typeof index === 'number' ? kept[index] : undefined;
    const points = readPoints(landmarks?.positions);
    if (face && descriptor instanceof Float32Array && descriptor.length === 128 && typeof age === 'number' && points)
      described.push({ ...face, descriptor, age, landmarks: points });
  }
  return described;
}
