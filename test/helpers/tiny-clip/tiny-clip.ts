import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { clipTokenizerFiles, type ClipTokenizerFiles } from './clip-bpe';
import { textModel, visionModel } from './onnx-graphs';

/**
 * A CLIP-shaped model in the Hugging Face layout transformers.js reads (config.json, tokenizer.json,
 * tokenizer_config.json, preprocessor_config.json, onnx/{text,vision}_model_quantized.onnx), small enough to write in
 * a test. Its tokenizer is CLIP's byte-level BPE (clip-bpe.ts). Its 4 dimensions are red, green, blue and "other": a
 * word's token embeds along its colour's axis, a picture along its mean (normalised) red, green and blue, so the text
 * "red" is nearest a red frame. Real inference runs on it
 * (onnxruntime-node); nothing is precomputed.
 */

export const TINY_CLIP_DIM = 4;

/** Words and the axis each points along (0 red, 1 green, 2 blue, 3 other); every other token embeds to zero. */
const WORDS: Record<string, number> = {
  red: 0,
  fire: 0,
  tomato: 0,
  green: 1,
  grass: 1,
  forest: 1,
  blue: 2,
  sky: 2,
  ocean: 2,
  dog: 3,
  car: 3,
};

/** The longest token sequence the model takes (CLIP's is 77), special tokens included. */
export const TINY_CLIP_MAX_TOKENS = 16;

/** CLIP's byte-level BPE, its merges learned on the words above: each is one token, e.g. `red</w>`. */
export const tinyClipTokenizer = (): ClipTokenizerFiles => clipTokenizerFiles(Object.keys(WORDS), TINY_CLIP_MAX_TOKENS);

function embeddings(vocab: Map<string, number>): Float32Array {
  const table = new Float32Array(vocab.size * TINY_CLIP_DIM);
  for (const [word, axis] of Object.entries(WORDS)) {
    const row = vocab.get(`${word}</w>`);
    if (row === undefined) throw new Error(`the tokenizer has no single token for "${word}"`);
    table[row * TINY_CLIP_DIM + axis] = 1;
  }
  return table;
}

/** Colour channel c (after the processor's normalisation to [-1, 1]) projects onto axis c. */
function projection(): Float32Array {
  const m = new Float32Array(3 * TINY_CLIP_DIM);
  for (let c = 0; c < 3; c++) m[c * TINY_CLIP_DIM + c] = 1;
  return m;
}

export function tinyClipFiles(): Map<string, Uint8Array> {
  const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value, null, 2));
  const tokenizer = tinyClipTokenizer();
  return new Map<string, Uint8Array>([
    [
      'config.json',
      json({
        model_type: 'clip',
        architectures: ['CLIPModel'],
        projection_dim: TINY_CLIP_DIM,
        text_config: {
          model_type: 'clip_text_model',
          hidden_size: TINY_CLIP_DIM,
          max_position_embeddings: TINY_CLIP_MAX_TOKENS,
        },
        vision_config: { model_type: 'clip_vision_model', hidden_size: TINY_CLIP_DIM, image_size: 8, patch_size: 8 },
      }),
    ],
    ['tokenizer.json', json(tokenizer.tokenizer)],
    ['tokenizer_config.json', json(tokenizer.config)],
    [
      'preprocessor_config.json',
      json({
        image_processor_type: 'CLIPImageProcessor',
        do_resize: true,
        size: { shortest_edge: 8 },
        do_center_crop: true,
        crop_size: { height: 8, width: 8 },
        do_rescale: true,
        rescale_factor: 1 / 255,
        do_normalize: true,
        image_mean: [0.5, 0.5, 0.5],
        image_std: [0.5, 0.5, 0.5],
        do_convert_rgb: true,
        resample: 3,
      }),
    ],
    ['onnx/text_model_quantized.onnx', textModel(embeddings(tokenizer.vocab), tokenizer.vocab.size, TINY_CLIP_DIM)],
    ['onnx/vision_model_quantized.onnx', visionModel(projection(), TINY_CLIP_DIM)],
  ]);
}

/** Writes the model's files under dir (dir/config.json, dir/onnx/...). */
export async function writeTinyClip(dir: string): Promise<void> {
  for (const [name, data] of tinyClipFiles()) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), data);
  }
}
