import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** A Hugging Face repository name: owner/name, each part [A-Za-z0-9._-] and never "." or "..". */
const repoPart = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,96}$/)
  .refine((p) => p !== '.' && p !== '..', 'must not be . or ..');

export const DEFAULT_MODEL_HOST = 'https://huggingface.co';
export const DEFAULT_MODEL = 'Xenova/clip-vit-base-patch32';

const defaults = {
  host: DEFAULT_MODEL_HOST,
  model: DEFAULT_MODEL,
  revision: 'main',
  dtype: 'q8' as const,
  similarityFloor: 0.2,
  similarityCeiling: 0.3,
  threads: 1,
  pollMs: 30_000,
  fetchLeaseMs: 30_000,
};

/**
 * The model host is an http(s) origin in the Hub's layout (`<host>/<model>/resolve/<revision>/<file>`) or an absolute
 * folder holding `<model>/<file>`. The similarity floor and ceiling map the model's text-image cosine to [0, 1]:
 * ViT-B/32 CLIP gives ~0.15-0.2 to unrelated pairs and ~0.3 to a good match.
 */
export const semanticConfigSchema = z
  .object({
    host: z
      .string()
      .min(1)
      .refine(
        (h) => isAbsolute(h) || /^https?:\/\/[^/]+\/?$/.test(h) || /^https?:\/\/[^?#]+$/.test(h),
        'must be an http(s) URL or an absolute folder path',
      )
      .default(defaults.host),
    model: z
      .string()
      .refine((m) => {
        const parts = m.split('/');
        return parts.length === 2 && parts.every((p) => repoPart.safeParse(p).success);
      }, 'must be owner/name')
      .default(defaults.model),
    revision: repoPart.default(defaults.revision),
    /** transformers.js's dtype: q8 reads onnx/<part>_model_quantized.onnx, fp32 onnx/<part>_model.onnx. */
    dtype: z.enum(['q8', 'fp32', 'fp16']).default(defaults.dtype),
    similarityFloor: z.number().min(-1).max(1).default(defaults.similarityFloor),
    similarityCeiling: z.number().min(-1).max(1).default(defaults.similarityCeiling),
    /** onnxruntime threads per inference: the indexer and search share the machine. */
    threads: z.number().int().min(1).max(16).default(defaults.threads),
    /**
     * How often a process looks at the database for a download asked for elsewhere and for keyframes left to embed
     * (the pending query scans the segments without a vector: not too often on a large library).
     */
    pollMs: z.number().int().min(50).max(3_600_000).default(defaults.pollMs),
    /**
     * On a team, how long the lease on fetching the model from its host outlives its holder's last renewal: a process
     * that dies mid-download holds the others back this long before one of them carries the download on.
     */
    fetchLeaseMs: z.number().int().min(1000).max(600_000).default(defaults.fetchLeaseMs),
  })
  .strict()
  .refine((c) => c.similarityCeiling > c.similarityFloor, {
    message: 'similarityCeiling must be above similarityFloor',
    path: ['similarityCeiling'],
  })
  .default(defaults);

export type SemanticConfig = z.infer<typeof semanticConfigSchema>;
