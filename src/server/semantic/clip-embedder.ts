import { sep } from 'node:path';
import type * as TransformersModule from '@huggingface/transformers';
import type { SemanticConfig } from './semantic-config';

/** Unit-length embeddings of keyframes and of query text from one CLIP-class model, in one space. */
export interface Embedder {
  readonly dim: number;
  embedImages(files: string[]): Promise<Float32Array[]>;
  embedText(text: string): Promise<Float32Array>;
  close(): Promise<void>;
}

type Transformers = typeof TransformersModule;
type Tensor = InstanceType<Transformers['Tensor']>;

/**
 * transformers.js set to read models from the cache folder alone: remote models are off and its fetch refuses, so
 * loading never reaches the network (the download is ours: model-download.ts). `modelsRoot` is the cache root holding
 * `<owner>/<name>/`.
 */
async function transformersFromCache(modelsRoot: string): Promise<Transformers> {
  const t = await import('@huggingface/transformers');
  t.env.localModelPath = modelsRoot.endsWith(sep) ? modelsRoot : modelsRoot + sep;
  t.env.allowLocalModels = true;
  t.env.allowRemoteModels = false;
  t.env.useFSCache = false;
  t.env.useBrowserCache = false;
  t.env.fetch = (input: string | URL) =>
    Promise.reject(new Error(`the semantic model loads from its cache only, not ${String(input)}`));
  return t;
}

/** A text as the CLIP text model takes it: int64 [1, tokens] ids and attention mask. */
export interface ClipTextInputs {
  input_ids: Tensor;
  attention_mask: Tensor;
}

/** The model's tokenizer (CLIP's byte-level BPE in tokenizer.json), loaded as the embedder loads it. */
export async function loadClipTokenizer(modelsRoot: string, model: string): Promise<(text: string) => ClipTextInputs> {
  const t = await transformersFromCache(modelsRoot);
  return clipTextInputs(t, await t.AutoTokenizer.from_pretrained(model));
}

/**
 * A text's token ids between `<|startoftext|>` and `<|endoftext|>`, at most the tokenizer's model_max_length (77 for
 * CLIP). transformers.js truncates by cutting the tail, `<|endoftext|>` with it, while CLIP's text model reads the
 * text's meaning at that token (the exported graphs pool at the argmax of the ids: the end token has the highest): a long query is
 * cut as Python's tokenizer cuts it, before the end token, which stays last.
 */
function clipTextInputs(
  t: Transformers,
  tokenizer: InstanceType<Transformers['PreTrainedTokenizer']>,
): (text: string) => ClipTextInputs {
  const limit: unknown = tokenizer.model_max_length;
  const max = typeof limit === 'number' && Number.isInteger(limit) && limit >= 2 ? limit : Infinity;
  return (text) => {
    const ids: unknown = Reflect.get(tokenizer(text, { return_tensor: false }), 'input_ids');
    if (!isTokenIds(ids)) throw new Error('the tokenizer gave no token ids');
    const kept = ids.length > max ? [...ids.slice(0, max - 1), ids[ids.length - 1]!] : ids;
    const dims = [1, kept.length];
    return {
      input_ids: new t.Tensor(
        'int64',
        BigInt64Array.from(kept, (id) => BigInt(id)),
        dims,
      ),
      attention_mask: new t.Tensor('int64', new BigInt64Array(kept.length).fill(1n), dims),
    };
  };
}

const isTokenIds = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length >= 2 && v.every((id) => Number.isInteger(id));

/** Loads the model's text and vision halves with transformers.js (onnxruntime-node on the CPU) from the cache folder. */
export async function loadClipEmbedder(modelsRoot: string, config: SemanticConfig): Promise<Embedder> {
  const t = await transformersFromCache(modelsRoot);
  const options = {
    dtype: config.dtype,
    device: 'cpu' as const,
    session_options: { intraOpNumThreads: config.threads, interOpNumThreads: 1 },
  };
  const [tokenizer, processor, textModel, visionModel] = await Promise.all([
    t.AutoTokenizer.from_pretrained(config.model).then((tokenizer) => clipTextInputs(t, tokenizer)),
    t.AutoProcessor.from_pretrained(config.model),
    t.CLIPTextModelWithProjection.from_pretrained(config.model, options),
    t.CLIPVisionModelWithProjection.from_pretrained(config.model, options),
  ]);
  const rows = (tensor: unknown, name: string): Float32Array[] => {
    if (!(tensor instanceof t.Tensor) || tensor.dims.length !== 2 || !(tensor.data instanceof Float32Array))
      throw new Error(`the model's ${name} output is not a [batch, dim] float32 tensor`);
    const [batch = 0, dim = 0] = tensor.dims;
    const data = tensor.data;
    return Array.from({ length: batch }, (_, i) => unitLength(data.slice(i * dim, (i + 1) * dim)));
  };
  let dim = 0;
  const embedder: Embedder = {
    get dim() {
      return dim;
    },
    async embedImages(files) {
      if (files.length === 0) return [];
      const images = await Promise.all(files.map((f) => t.RawImage.read(f)));
      const inputs: unknown = await processor(images);
      const out: unknown = await visionModel(inputs);
      return rows(output(out, 'image_embeds'), 'image_embeds');
    },
    async embedText(text) {
      const out: unknown = await textModel(tokenizer(text));
      const [vector] = rows(output(out, 'text_embeds'), 'text_embeds');
      if (!vector) throw new Error('the model returned no text embedding');
      return vector;
    },
    async close() {
      await Promise.all([textModel.dispose(), visionModel.dispose()]);
    },
  };
  dim = (await embedder.embedText('a photo')).length;
  return embedder;
}

/** A named output of a model's answer (an object of tensors). */
function output(answer: unknown, name: string): unknown {
  return typeof answer === 'object' && answer !== null ? (Reflect.get(answer, name) as unknown) : undefined;
}

export function unitLength(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}
