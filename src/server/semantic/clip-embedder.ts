import { sep } from 'node:path';
import type { SemanticConfig } from './semantic-config';

/** Unit-length embeddings of keyframes and of query text from one CLIP-class model, in one space. */
export interface Embedder {
  readonly dim: number;
  embedImages(files: string[]): Promise<Float32Array[]>;
  embedText(text: string): Promise<Float32Array>;
  close(): Promise<void>;
}

/**
 * Loads the model's text and vision halves with transformers.js (onnxruntime-node on the CPU) from the cache folder
 * alone: remote models are off and its fetch refuses, so loading never reaches the network (the download is ours:
 * model-download.ts). `modelsRoot` is the cache root holding `<owner>/<name>/`.
 */
export async function loadClipEmbedder(modelsRoot: string, config: SemanticConfig): Promise<Embedder> {
  const t = await import('@huggingface/transformers');
  t.env.localModelPath = modelsRoot.endsWith(sep) ? modelsRoot : modelsRoot + sep;
  t.env.allowLocalModels = true;
  t.env.allowRemoteModels = false;
  t.env.useFSCache = false;
  t.env.useBrowserCache = false;
  t.env.fetch = (input: string | URL) =>
    Promise.reject(new Error(`the semantic model loads from its cache only, not ${String(input)}`));
  const options = {
    dtype: config.dtype,
    device: 'cpu' as const,
    session_options: { intraOpNumThreads: config.threads, interOpNumThreads: 1 },
  };
  const [tokenizer, processor, textModel, visionModel] = await Promise.all([
    t.AutoTokenizer.from_pretrained(config.model),
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
      const inputs: unknown = tokenizer([text], { padding: true, truncation: true });
      const out: unknown = await textModel(inputs);
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
