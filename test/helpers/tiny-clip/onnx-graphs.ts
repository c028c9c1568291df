import { concat, float, int, message, text, type Field } from './protobuf';

/**
 * Two real ONNX graphs shaped like CLIP's exported halves (the names and shapes transformers.js feeds and reads):
 * - text: input_ids, attention_mask [batch, tokens] (int64) -> text_embeds [batch, D]: each token's row of an
 *   embedding table (Gather), summed over the tokens the mask keeps (Einsum);
 * - vision: pixel_values [batch, 3, H, W] (float) -> image_embeds [batch, D]: the mean of each colour channel over the
 *   picture (ReduceMean), times a 3 x D matrix (MatMul).
 * Field numbers are onnx.proto's (ModelProto, GraphProto, NodeProto, TensorProto, ValueInfoProto, TypeProto).
 */

const FLOAT = 1;
const INT64 = 7;
const OPSET = 13;

type Dim = number | string;

function valueInfo(field: number, name: string, elemType: number, dims: Dim[]): Field {
  const shape = dims.map((d) => message(1, [typeof d === 'number' ? int(1, d) : text(2, d)]));
  return message(field, [text(1, name), message(2, [message(1, [int(1, elemType), message(2, shape)])])]);
}

function initializer(name: string, dims: number[], values: Float32Array): Field {
  return message(5, [
    ...dims.map((d) => int(1, d)),
    int(2, FLOAT),
    text(8, name),
    message(9, [new Uint8Array(values.buffer, values.byteOffset, values.byteLength)]),
  ]);
}

interface Attribute {
  name: string;
  ints?: number[];
  i?: number;
  s?: string;
  f?: number;
}

function attribute(a: Attribute): Field {
  const parts: Field[] = [text(1, a.name)];
  if (a.ints) parts.push(...a.ints.map((v) => int(8, v)), int(20, 7));
  else if (a.i !== undefined) parts.push(int(3, a.i), int(20, 2));
  else if (a.s !== undefined) parts.push(text(4, a.s), int(20, 3));
  else if (a.f !== undefined) parts.push(float(2, a.f), int(20, 1));
  return message(5, parts);
}

function node(opType: string, inputs: string[], outputs: string[], attributes: Attribute[] = []): Field {
  return message(1, [
    ...inputs.map((n) => text(1, n)),
    ...outputs.map((n) => text(2, n)),
    text(3, `${opType}_${outputs[0]}`),
    text(4, opType),
    ...attributes.map(attribute),
  ]);
}

function model(graph: Field[]): Uint8Array {
  return concat([int(1, 8), text(2, 'reelsync-tests'), message(7, graph), message(8, [text(1, ''), int(2, OPSET)])]);
}

/** embeddings: vocabulary size x D, row-major. */
export function textModel(embeddings: Float32Array, vocabulary: number, dim: number): Uint8Array {
  return model([
    node('Gather', ['token_embedding', 'input_ids'], ['tokens'], [{ name: 'axis', i: 0 }]),
    node('Cast', ['attention_mask'], ['mask'], [{ name: 'to', i: FLOAT }]),
    node('Einsum', ['mask', 'tokens'], ['text_embeds'], [{ name: 'equation', s: 'bs,bsd->bd' }]),
    text(2, 'tiny_clip_text'),
    initializer('token_embedding', [vocabulary, dim], embeddings),
    valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    valueInfo(11, 'attention_mask', INT64, ['batch', 'sequence']),
    valueInfo(12, 'text_embeds', FLOAT, ['batch', dim]),
  ]);
}

/** projection: 3 x D, row-major (one row per colour channel). */
export function visionModel(projection: Float32Array, dim: number): Uint8Array {
  return model([
    node(
      'ReduceMean',
      ['pixel_values'],
      ['channels'],
      [
        { name: 'axes', ints: [2, 3] },
        { name: 'keepdims', i: 0 },
      ],
    ),
    node('MatMul', ['channels', 'projection'], ['image_embeds']),
    text(2, 'tiny_clip_vision'),
    initializer('projection', [3, dim], projection),
    valueInfo(11, 'pixel_values', FLOAT, ['batch', 3, 'height', 'width']),
    valueInfo(12, 'image_embeds', FLOAT, ['batch', dim]),
  ]);
}
