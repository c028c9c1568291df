import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { io } from '@tensorflow/tfjs-core';
import type { NSFWJS, PredictionType } from 'nsfwjs';
import { loadHumanEngine, type Tfjs } from './human-engine';

const nodeRequire = createRequire(import.meta.url);

export type NsfwClass = PredictionType['className'];
export type NsfwScores = Record<NsfwClass, number>;

/** nsfwjs loaded once for the process: the safety scan (datalake) and the drawing analyzer (indexer) both use it. */
export interface NsfwClassifier {
  id: string;
  version: string;
  /** Class probabilities of one frame of packed RGB pixels. */
  classify(rgb: Uint8Array, width: number, height: number): Promise<NsfwScores>;
}

interface NsfwModule {
  NSFWJS: new (handler: io.IOHandler, options: { size: number }) => NSFWJS;
}

const MODEL = 'mobilenet_v2';
export const NSFW_MODEL_ID = `nsfwjs-${MODEL}`;

/** The model JSON and base64 weight shards ship in the package as small CommonJS wrappers; they are read from disk. */
function modelHandler(): io.IOHandler {
  const modelDir = join(dirname(nodeRequire.resolve('nsfwjs')), '..', 'models', MODEL);
  return {
    load: async () => {
      const json = nodeRequire(join(modelDir, 'model.min.js')) as io.ModelJSON;
      const weightSpecs: io.WeightsManifestEntry[] = [];
      const buffers: Buffer[] = [];
      for (const group of json.weightsManifest) {
        for (const path of group.paths) {
          const base64: unknown = nodeRequire(join(modelDir, `${path}.min.js`));
          if (typeof base64 !== 'string') throw new Error(`nsfwjs weight shard ${path} is not a base64 string`);
          buffers.push(Buffer.from(base64, 'base64'));
        }
        weightSpecs.push(...group.weights);
      }
      const weights = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        weightSpecs,
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      };
    },
  };
}

function packageVersion(name: string): string {
  const pkg = JSON.parse(
    readFileSync(join(dirname(nodeRequire.resolve(name)), '..', '..', 'package.json'), 'utf8'),
  ) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

let classifier: Promise<NsfwClassifier> | null = null;

/**
 * nsfwjs (MobileNetV2, 224 px) on the wasm backend. tfjs keeps one global engine and the indexer's human instance
 * insists on initialising the wasm backend itself, so human is brought up first and nsfwjs runs on the same backend.
 */
export function loadNsfwClassifier(): Promise<NsfwClassifier> {
  classifier ??= (async () => nsfwOn((await loadHumanEngine()).tf))();
  classifier.catch(() => {
    classifier = null;
  });
  return classifier;
}

/**
 * nsfwjs on a tfjs whose wasm backend is up (human's, or loadWasmBackend's in a thread of its own): the model is
 * loaded on it.
 */
export async function nsfwOn(tf: Tfjs): Promise<NsfwClassifier> {
  const nsfw = nodeRequire('nsfwjs') as NsfwModule;
  const model = new nsfw.NSFWJS(modelHandler(), { size: 224 });
  await model.load();
  if (tf.getBackend() !== 'wasm') throw new Error(`tfjs backend is ${tf.getBackend()}, expected wasm`);
  return {
    id: NSFW_MODEL_ID,
    version: `nsfwjs ${packageVersion('nsfwjs')} ${MODEL} tfjs-wasm ${tf.version_core}`,
    classify: (rgb, w, h) => classify(tf, model, rgb, w, h),
  };
}

async function classify(tf: Tfjs, model: NSFWJS, rgb: Uint8Array, width: number, height: number): Promise<NsfwScores> {
  const tensor = tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    const predictions = await model.classify(tensor, 5);
    const scores: NsfwScores = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 };
    for (const p of predictions) scores[p.className] = p.probability;
    return scores;
  } finally {
    tensor.dispose();
  }
}
