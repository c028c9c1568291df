import type { ReadWord } from './ctc';
import { decodeLine } from './ctc';
import { detectorInput, detectorInputSize, pictureBoxes } from './detect';
import type { SceneTextModels } from './models';
import { ort } from './models';
import { mergeLineBoxes } from './merge-lines';
import { lineWidth, REC_HEIGHT, recogniserInput } from './recognize';
import type { RotatedRect } from './rotated-rect';
import type { RgbImage } from './warp';
import { wordGaps } from './word-gaps';

/** Lines recognised per run: sorted by width so one batch pads little. */
const BATCH = 8;

export interface SceneLine {
  rect: RotatedRect;
  words: ReadWord[];
}

async function detect(models: SceneTextModels, image: RgbImage): Promise<RotatedRect[]> {
  const size = detectorInputSize(image.width, image.height);
  const input = new ort.Tensor('float32', detectorInput(image, size), [1, 3, size.height, size.width]);
  const output = await models.detection.run({ [models.detection.inputNames[0]!]: input });
  const map = output[models.detection.outputNames[0]!]!;
  const boxes = pictureBoxes({ data: map.data as Float32Array, ...size }, image);
  input.dispose();
  map.dispose();
  return boxes.map((b) => b.rect);
}

/**
 * The text of a picture: regions found by the detector, read top to bottom and left to right, each straightened and
 * recognised. Every word keeps its recognition confidence; choosing which to keep is the caller's.
 */
export async function readSceneText(models: SceneTextModels, image: RgbImage): Promise<SceneLine[]> {
  const rects = mergeLineBoxes(await detect(models, image)).sort((a, b) =>
    Math.abs(a.cy - b.cy) < Math.min(a.height, b.height) / 2 ? a.cx - b.cx : a.cy - b.cy,
  );
  const order = rects.map((_, i) => i).sort((a, b) => lineWidth(rects[a]!) - lineWidth(rects[b]!));
  const lines: SceneLine[] = rects.map((rect) => ({ rect, words: [] }));
  for (let from = 0; from < order.length; from += BATCH) {
    const batch = order.slice(from, from + BATCH);
    const { data, width, widths } = recogniserInput(
      image,
      batch.map((i) => rects[i]!),
    );
    const input = new ort.Tensor('float32', data, [batch.length, 3, REC_HEIGHT, width]);
    const output = await models.recognition.run({ [models.recognition.inputNames[0]!]: input });
    const probs = output[models.recognition.outputNames[0]!]!;
    const [, steps = 0, classes = 0] = probs.dims;
    const all = probs.data as Float32Array;
    batch.forEach((line, k) => {
      const one = all.subarray(k * steps * classes, (k + 1) * steps * classes);
      const spaces = wordGaps({ data, offset: k * 3 * REC_HEIGHT * width, width, height: REC_HEIGHT }, widths[k]!);
      lines[line]!.words = decodeLine(one, steps, classes, models.charset, spaces);
    });
    input.dispose();
    probs.dispose();
  }
  return lines;
}
