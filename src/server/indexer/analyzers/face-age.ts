import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as TfjsCore from '@tensorflow/tfjs-core';
import type * as TfjsConverter from '@tensorflow/tfjs-converter';
import { createRequire } from 'node:module';
import { describeFaces, type FaceBox, type FaceDescriber } from './face-descriptors';

const nodeRequire = createRequire(import.meta.url);

/**
 * A second age estimate, independent of face-api's age net: human's faceres (HSE FaceRes, 7 MB, 224 px crops of the
 * detector's box, trained apart from face-api's 112 px net on the aligned crop). Read only where face-api reads a child:
 * "child" is indexed only where both nets agree on the box as found, shrunk and grown (people-descriptors.ts), since
 * each net alone reads faces it was never trained on, such as a computer-animated grown man, as a child's in some
 * frames. faceres costs about twice face-api's reading of a face, so it does not run on every face.
 */
export interface AgeReader {
  model: TfjsConverter.GraphModel;
}

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: { paths: string[]; weights: TfjsCore.io.WeightsManifestEntry[] }[];
}

/** Loads faceres from human's models folder with fs (no fetch), on the tfjs-core instance the indexer runs. */
export async function loadAgeReader(humanDir: string): Promise<AgeReader> {
  const converter = nodeRequire('@tensorflow/tfjs-converter') as typeof TfjsConverter;
  const dir = join(humanDir, 'models');
  const json = JSON.parse(await readFile(join(dir, 'faceres.json'), 'utf8')) as ModelJson;
  const buffers = await Promise.all(json.weightsManifest.flatMap((g) => g.paths.map((p) => readFile(join(dir, p)))));
  const weights = Buffer.concat(buffers);
  const model = await converter.loadGraphModel({
    load: () =>
      Promise.resolve({
        modelTopology: json.modelTopology as object,
        weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      }),
  });
  return { model };
}

/** Human's crop of a face (the box at blazeface's 256 px, then the model's 224 px), pixel values 0-255. */
const DETECTOR_SIZE = 256;
const MODEL_SIZE = 224;

/**
 * faceres' age of each face, in years (null when its output is not the 100 age classes), read as human does: the most
 * likely class in tens of years, moved towards the likelier neighbour. `image` is [height, width, 3] and not disposed.
 */
export async function readAges(
  reader: AgeReader,
  tf: typeof TfjsCore,
  image: TfjsCore.Tensor3D,
  faces: FaceBox[],
): Promise<(number | null)[]> {
  const [height, width] = image.shape;
  const ages: (number | null)[] = [];
  for (const { box } of faces) {
    const [x, y, w, h] = box;
    const input = tf.tidy(() => {
      const batch = tf.expandDims<TfjsCore.Tensor4D>(tf.cast(image, 'float32'), 0);
      const cut = [[y / height, x / width, (y + h) / height, (x + w) / width]];
      const crop = tf.image.cropAndResize(batch, cut, [0], [DETECTOR_SIZE, DETECTOR_SIZE]);
      return tf.image.resizeBilinear(crop, [MODEL_SIZE, MODEL_SIZE], false);
    });
    const outputs = reader.model.execute(input) as TfjsCore.Tensor[];
    input.dispose();
    try {
      const ageClasses = outputs.find((t) => t.shape[1] === 100);
      ages.push(ageClasses ? ageFromClasses(await ageClasses.data()) : null);
    } finally {
      for (const t of outputs) t.dispose();
    }
  }
  return ages;
}

/**
 * Human's reading of faceres' 100 classes, one a year (its faceres.ts): the likeliest year moved towards its likelier
 * neighbour by 10 years times that neighbour's probability. Kept as it is so ages match human's own.
 */
export function ageFromClasses(p: ArrayLike<number>): number {
  let i = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[i]!) i = k;
  const below = p[i - 1] ?? 0;
  const above = p[i + 1] ?? 0;
  return Math.round(below > above ? 10 * i - 100 * below : 10 * i + 100 * above) / 10;
}

/** The box scales, about its centre, at which a child's reading must hold too (people-descriptors.ts). */
export const CHILD_VIEW_SCALES = [0.85, 1.15];

export function scaledBox([x, y, w, h]: FaceBox['box'], k: number): FaceBox['box'] {
  return [x + (w * (1 - k)) / 2, y + (h * (1 - k)) / 2, w * k, h * k];
}

/**
 * The readings "child" needs beyond face-api's own: faceres' on the box as found, then both nets' at
 * CHILD_VIEW_SCALES (face-api finds the landmarks again in the other box, so its aligned crop differs too). A view too
 * small to describe gives no face-api age.
 */
export async function childCheckAges(
  describer: FaceDescriber,
  reader: AgeReader,
  tf: typeof TfjsCore,
  image: TfjsCore.Tensor3D,
  face: FaceBox,
): Promise<number[]> {
  const views = CHILD_VIEW_SCALES.map((k) => ({ box: scaledBox(face.box, k), score: face.score }));
  const described = await describeFaces(describer, image, views);
  const second = await readAges(reader, tf, image, [face, ...views]);
  return [...second.filter((a): a is number => a !== null), ...described.map((d) => d.age)];
}
