import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as TfjsCore from '@tensorflow/tfjs-core';
import type { Config, Human } from '@vladmandic/human';
import { z } from 'zod';
import { describeFaces, loadFaceDescriber, type DescribedFace, type FaceDescriber } from './face-descriptors';

const nodeRequire = createRequire(import.meta.url);

/** tfjs-core as a CommonJS module: the same instance human.node-wasm.js requires, so tensors cross between them. */
export type Tfjs = typeof TfjsCore;

export interface HumanEngine {
  human: Human;
  tf: Tfjs;
  version: string;
}

/** Human plus face-api's landmark and recognition nets, run on the faces human finds: what the indexer detects with. */
export interface DetectionEngine extends HumanEngine {
  faces: FaceDescriber;
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
      // Off: faces are described by face-api (128 numbers, see face-descriptors.ts); faceres would double the face cost.
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
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

let engine: Promise<HumanEngine> | null = null;

/**
 * The process-wide human instance on the wasm backend, models loaded. Loaded once: tfjs keeps one global engine, so two
 * instances would only fight over it. The node-wasm build is loaded by file path because the package's exports map
 * does not expose it.
 */
export function loadHumanEngine(): Promise<HumanEngine> {
  engine ??= (async () => {
    allowFileFetch();
    const mod: unknown = nodeRequire(join(packageDir('@vladmandic/human'), 'dist', 'human.node-wasm.js'));
    if (!isHumanModule(mod)) throw new Error('human.node-wasm.js has no Human export');
    const tf = nodeRequire('@tensorflow/tfjs-core') as Tfjs;
    const human = new mod.Human(humanConfig());
    await human.load();
    const missing = ['centernet', 'blazeface'].filter((m) => !loadedModels(human).includes(m));
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
    return { ...base, faces, version: `${base.version} ${faces.version}` };
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
  face: z.array(z.object({ score: z.number(), box: boxSchema })),
});

export interface FrameDetections {
  /** COCO labels from centernet, every one with its score and its box ([x, y, width, height] in input pixels). */
  objects: { label: string; score: number; box: [number, number, number, number] }[];
  /** Faces found by human's detector, described by face-api; a face too small to describe is left out. */
  faces: DescribedFace[];
}

/** Runs detection on packed RGB pixels: objects and face boxes by human, then face descriptors by face-api, one tensor. */
export async function detectRgb(
  engine: DetectionEngine,
  rgb: Uint8Array,
  width: number,
  height: number,
): Promise<FrameDetections> {
  const tensor = engine.tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    const result = resultSchema.parse(await engine.human.detect(tensor));
    const faces = result.face.length > 0 ? await describeFaces(engine.faces, tensor, result.face) : [];
    return { objects: result.object, faces };
  } finally {
    tensor.dispose();
  }
}
