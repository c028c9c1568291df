import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as TfjsCore from '@tensorflow/tfjs-core';
import type { Config, Human } from '@vladmandic/human';
import { z } from 'zod';
import { childCheckAges, loadAgeReader, type AgeReader } from './face-age';
import { confirmFaces } from './face-confirm';
import {
  describeFaces,
  loadFaceDescriber,
  type DescribedFace,
  type FaceBox,
  type FaceDescriber,
} from './face-descriptors';
import { FRAME_PASS, OBJECT_PASS, PASS_MODELS, POSE_PASS, readPose } from './human-passes';
import { lookCloser } from './object-confirm';
import { readsAsChild, someoneSeen, type PeopleSeen, type Seen, type SeenFace } from './people-descriptors';

const nodeRequire = createRequire(import.meta.url);

/** tfjs-core as a CommonJS module: the same instance human.node-wasm.js requires, so tensors cross between them. */
export type Tfjs = typeof TfjsCore;

export interface HumanEngine {
  human: Human;
  tf: Tfjs;
  version: string;
}

/**
 * Human plus face-api's landmark, recognition and age nets and faceres' age (a second estimate), run on the faces human
 * finds: what the indexer detects with.
 */
export interface DetectionEngine extends HumanEngine {
  faces: FaceDescriber;
  ages: AgeReader;
}

let fetchPatched = false;

/**
 * Node's fetch has no file:// support and human loads its models with the global fetch. This serves file:// URLs from
 * disk and hands every other request to the original fetch untouched.
 */
function allowFileFetch(): void {
  if (fetchPatched) return;
  fetchPatched = true;
  const original = globalThis.fetch;
  const patched = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return original(input, init);
    return new Response(await readFile(fileURLToPath(url)));
  };
  globalThis.fetch = patched;
}

/** A package's folder, found from its entry point: human's exports map hides package.json. */
export function packageDir(name: string): string {
  let dir = dirname(nodeRequire.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || !dir.endsWith(name.split('/').pop() ?? name)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the folder of ${name}`);
    dir = parent;
  }
  return dir;
}

function humanConfig(): Partial<Config> {
  const dirUrl = (dir: string): string => `${pathToFileURL(dir).href}/`;
  return {
    backend: 'wasm',
    wasmPath: dirUrl(join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')),
    modelBasePath: dirUrl(join(packageDir('@vladmandic/human'), 'models')),
    debug: false,
    async: true,
    warmup: 'none',
    cacheModels: false,
    // Keyframes are unrelated stills: never reuse a previous frame's result.
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      // 0.5: below it blazeface found "faces" in a motorcycle's chrome.
      detector: { rotation: false, maxDetected: 20, minConfidence: 0.5, return: false },
      mesh: { enabled: false },
      iris: { enabled: false },
      attention: { enabled: false },
      // Off: faces are described by face-api (128 numbers and age, see face-descriptors.ts); faceres would double the
      // face cost.
      description: { enabled: false },
      // "smiling" (people-descriptors.ts): 64 px grey crops, a few ms a face.
      emotion: { enabled: true, minConfidence: 0.1 },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    // Loaded here, run only by the pose pass (human-passes.ts) on frames with someone in them.
    body: { enabled: true, modelPath: 'movenet-lightning.json' },
    hand: { enabled: false },
    gesture: { enabled: true },
    segmentation: { enabled: false },
    // Low threshold on purpose: COCO labels are often wrong, so every label is kept with its score for ranking.
    object: { enabled: true, minConfidence: 0.1, maxDetected: 30 },
  };
}

interface HumanModule {
  Human: new (config?: Partial<Config>) => Human;
}

function isHumanModule(value: unknown): value is HumanModule {
  return typeof value === 'object' && value !== null && typeof (value as { Human?: unknown }).Human === 'function';
}

/** A Human instance (nothing loaded yet) and the tfjs-core it computes with. */
function newHuman(): { human: Human; tf: Tfjs } {
  allowFileFetch();
  const mod: unknown = nodeRequire(join(packageDir('@vladmandic/human'), 'dist', 'human.node-wasm.js'));
  if (!isHumanModule(mod)) throw new Error('human.node-wasm.js has no Human export');
  return { human: new mod.Human(humanConfig()), tf: nodeRequire('@tensorflow/tfjs-core') as Tfjs };
}

/**
 * The tfjs wasm backend brought up exactly as human brings it up (its wasm files and flags), without human's models:
 * for a thread that runs another model (nsfwjs) on that backend and computes the same numbers as beside human.
 */
export async function loadWasmBackend(): Promise<Tfjs> {
  const { human, tf } = newHuman();
  await human.init();
  if (tf.getBackend() !== 'wasm') throw new Error(`tfjs backend is ${tf.getBackend()}, expected wasm`);
  return tf;
}

let engine: Promise<HumanEngine> | null = null;

/**
 * The process-wide human instance on the wasm backend, models loaded. Loaded once: tfjs keeps one global engine, so two
 * instances would only fight over it. The node-wasm build is loaded by file path because the package's exports map
 * does not expose it.
 */
export function loadHumanEngine(): Promise<HumanEngine> {
  engine ??= (async () => {
    const { human, tf } = newHuman();
    await human.load();
    const missing = PASS_MODELS.filter((m) => !loadedModels(human).includes(m));
    if (missing.length > 0) throw new Error(`human could not load ${missing.join(', ')} (backend ${tf.getBackend()})`);
    if (tf.getBackend() !== 'wasm') throw new Error(`tfjs backend is ${tf.getBackend()}, expected wasm`);
    return { human, tf, version: `human ${human.version} tfjs-wasm ${tf.version_core}` };
  })();
  engine.catch(() => {
    engine = null;
  });
  return engine;
}

let detection: Promise<DetectionEngine> | null = null;

/** The human engine with face-api loaded on the same tfjs instance (objects analyzer, photo search). Loaded once. */
export function loadDetectionEngine(): Promise<DetectionEngine> {
  detection ??= (async () => {
    const base = await loadHumanEngine();
    const faces = await loadFaceDescriber(base.tf, packageDir);
    const ages = await loadAgeReader(packageDir('@vladmandic/human'));
    return { ...base, faces, ages, version: `${base.version} ${faces.version} faceres` };
  })();
  detection.catch(() => {
    detection = null;
  });
  return detection;
}

function loadedModels(human: Human): string[] {
  const models = (human.models as unknown as { models?: Record<string, unknown> }).models ?? {};
  return Object.entries(models)
    .filter(([, model]) => model !== null && model !== undefined)
    .map(([name]) => name);
}

const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const resultSchema = z.object({
  object: z.array(z.object({ label: z.string(), score: z.number(), box: boxSchema })),
  face: z.array(
    z.object({
      score: z.number(),
      box: boxSchema,
      emotion: z.array(z.object({ emotion: z.string(), score: z.number() })).optional(),
    }),
  ),
});

export interface FrameDetections {
  /**
   * COCO labels from centernet, each with its score and box ([x, y, width, height] in frame pixels); an unsure small
   * object a closer look did not confirm (object-confirm.ts) is left out.
   */
  objects: { label: string; score: number; box: [number, number, number, number] }[];
  /** Faces found by human's detector, described by face-api; a face too small to describe is left out. */
  faces: DescribedFace[];
  /** Who is in the frame, for the people analyzer: person boxes, faces with smile and ages, poses. */
  people: PeopleSeen;
}

let queue: Promise<unknown> = Promise.resolve();

/** One detection at a time: each human call sets the instance's config for its pass (and wasm has one thread anyway). */
function exclusive<T>(run: () => Promise<T>): Promise<T> {
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}

/** Each frame's detections, kept while its pixels live: the objects and people analyzers both ask for them. */
const detected = new WeakMap<Uint8Array, Promise<FrameDetections>>();

/**
 * Runs detection on packed RGB pixels: objects, faces and their emotion by human, face descriptors and ages by
 * face-api (a child's checked by faceres and other crops), then, when someone is in the frame, human's body pose and its gestures. The same pixels (the same array)
 * are detected once, however many analyzers ask.
 */
export function detectRgb(
  engine: DetectionEngine,
  rgb: Uint8Array,
  width: number,
  height: number,
): Promise<FrameDetections> {
  let found = detected.get(rgb);
  if (!found) {
    found = exclusive(() => detectOnce(engine, rgb, width, height));
    detected.set(rgb, found);
  }
  return found;
}

/**
 * Human's frame pass on an image tensor: its raw result, the faces it found (each keyed by its place in
 * `result.face`) and the object detector's person boxes. Nothing is confirmed yet.
 */
export async function detectFaces(
  engine: DetectionEngine,
  tensor: TfjsCore.Tensor3D,
): Promise<{ result: z.infer<typeof resultSchema>; faces: (FaceBox & { key: number })[]; persons: Seen[] }> {
  const result = resultSchema.parse(await engine.human.detect(tensor, FRAME_PASS));
  const persons = result.object.filter((o) => o.label === 'person').map((o) => ({ box: o.box, score: o.score }));
  return { result, faces: result.face.map((f, key) => ({ box: f.box, score: f.score, key })), persons };
}

async function detectOnce(
  engine: DetectionEngine,
  rgb: Uint8Array,
  width: number,
  height: number,
): Promise<FrameDetections> {
  const tensor = engine.tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    const { result, faces: found, persons } = await detectFaces(engine, tensor);
    // Only a face two of skin, a sure person box and its landmarks vouch for is stored, counted, aged or called
    // smiling (face-confirm.ts); one too small to describe has no landmarks and is dropped too.
    const faces = await confirmFaces(found, persons, rgb, width, height, (v) => describeFaces(engine.faces, tensor, v));
    const seenFaces: SeenFace[] = [];
    for (const face of faces) {
      const f = result.face[face.key]!;
      // Only a face face-api reads as a child's pays for the readings that must agree before "child" is told.
      const more = readsAsChild(face.age)
        ? await childCheckAges(engine.faces, engine.ages, engine.tf, tensor, face)
        : [];
      const happy = f.emotion?.find((e) => e.emotion === 'happy')?.score ?? 0;
      seenFaces.push({ box: f.box, score: f.score, happy, ages: [face.age, ...more] });
    }
    const pose = someoneSeen(persons, seenFaces)
      ? readPose(await engine.human.detect(tensor, POSE_PASS))
      : { bodies: [], gestures: [] };
    // An unsure small object is kept only if a crop around it shows it again (object-confirm.ts).
    const { objects } = await lookCloser(result.object, width, height, async ([x, y, w, h]) => {
      const crop = engine.tf.slice(tensor, [y, x, 0], [h, w, 3]);
      try {
        return resultSchema.shape.object.parse((await engine.human.detect(crop, OBJECT_PASS)).object);
      } finally {
        crop.dispose();
      }
    });
    return {
      objects,
      faces,
      people: { persons, faces: seenFaces, ...pose },
    };
  } finally {
    tensor.dispose();
  }
}
