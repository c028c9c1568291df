import type { SemanticConfig } from './semantic-config';

/** The files transformers.js reads for a CLIP model's text and vision halves, in the Hub's layout. */
export function modelFiles(config: Pick<SemanticConfig, 'dtype'>): string[] {
  const suffix = { q8: '_quantized', fp32: '', fp16: '_fp16' }[config.dtype];
  return [
    'config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    'preprocessor_config.json',
    `onnx/text_model${suffix}.onnx`,
    `onnx/vision_model${suffix}.onnx`,
  ];
}

/** `<host>/<model>/resolve/<revision>/<file>`, the Hub's address of one file at one revision. */
export function resolveUrl(config: Pick<SemanticConfig, 'host' | 'model' | 'revision'>, file: string): URL {
  const base = config.host.endsWith('/') ? config.host : `${config.host}/`;
  const path = [...config.model.split('/'), 'resolve', config.revision, ...file.split('/')]
    .map(encodeURIComponent)
    .join('/');
  return new URL(path, base);
}
