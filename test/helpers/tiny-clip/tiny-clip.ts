import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { textModel, visionModel } from './onnx-graphs';

/**
 * A CLIP-shaped model in the Hugging Face layout transformers.js reads (config.json, tokenizer.json,
 * tokenizer_config.json, preprocessor_config.json, onnx/{text,vision}_model_quantized.onnx), small enough to write in
 * a test. Its 4 dimensions are red, green, blue and "other": a word's embedding is its colour's axis, a picture's is
 * its mean (normalised) red, green and blue, so the text "red" is nearest a red frame. Real inference runs on it
 * (onnxruntime-node); nothing is precomputed.
 */

export const TINY_CLIP_DIM = 4;

/** Words and the axis each points along (0 red, 1 green, 2 blue, 3 other); [PAD] and [UNK] embed to zero. */
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

export const TINY_CLIP_VOCAB = ['[PAD]', '[UNK]', ...Object.keys(WORDS)];

function embeddings(): Float32Array {
  const table = new Float32Array(TINY_CLIP_VOCAB.length * TINY_CLIP_DIM);
  TINY_CLIP_VOCAB.forEach((word, row) => {
    const axis = WORDS[word];
    if (axis !== undefined) table[row * TINY_CLIP_DIM + axis] = 1;
  });
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
  const vocab = Object.fromEntries(TINY_CLIP_VOCAB.map((w, i) => [w, i]));
  return new Map<string, Uint8Array>([
    [
      'config.json',
      json({
        model_type: 'clip',
        architectures: ['CLIPModel'],
        projection_dim: TINY_CLIP_DIM,
        text_config: { model_type: 'clip_text_model', hidden_size: TINY_CLIP_DIM, max_position_embeddings: 16 },
        vision_config: { model_type: 'clip_vision_model', hidden_size: TINY_CLIP_DIM, image_size: 8, patch_size: 8 },
      }),
    ],
    [
      'tokenizer.json',
      json({
        version: '1.0',
        truncation: null,
        padding: null,
        added_tokens: [
          {
            id: 0,
            content: '[PAD]',
            single_word: false,
            lstrip: false,
            rstrip: false,
            normalized: false,
            special: true,
          },
          {
            id: 1,
            content: '[UNK]',
            single_word: false,
            lstrip: false,
            rstrip: false,
            normalized: false,
            special: true,
          },
        ],
        normalizer: { type: 'Lowercase' },
        pre_tokenizer: { type: 'Whitespace' },
        post_processor: null,
        decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
        model: {
          type: 'WordPiece',
          unk_token: '[UNK]',
          continuing_subword_prefix: '##',
          max_input_chars_per_word: 100,
          vocab,
        },
      }),
    ],
    [
      'tokenizer_config.json',
      json({ tokenizer_class: 'CLIPTokenizer', model_max_length: 16, pad_token: '[PAD]', unk_token: '[UNK]' }),
    ],
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
    ['onnx/text_model_quantized.onnx', textModel(embeddings(), TINY_CLIP_VOCAB.length, TINY_CLIP_DIM)],
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
