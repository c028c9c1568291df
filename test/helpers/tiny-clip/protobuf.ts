/**
 * The few protobuf encodings an ONNX file needs (varints, length-delimited fields, packed numbers), so the tests can
 * write real ONNX models without a protobuf library.
 */

export type Field = Uint8Array;

function varint(value: bigint): number[] {
  const out: number[] = [];
  let v = BigInt.asUintN(64, value);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

const key = (field: number, wireType: number): number[] => varint(BigInt((field << 3) | wireType));

export function int(field: number, value: number | bigint): Field {
  return Uint8Array.from([...key(field, 0), ...varint(BigInt(value))]);
}

export function bytes(field: number, value: Uint8Array): Field {
  return Uint8Array.from([...key(field, 2), ...varint(BigInt(value.length)), ...value]);
}

export function text(field: number, value: string): Field {
  return bytes(field, new TextEncoder().encode(value));
}

export function float(field: number, value: number): Field {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, value, true);
  return Uint8Array.from([...key(field, 5), ...b]);
}

export function message(field: number, parts: Field[]): Field {
  return bytes(field, concat(parts));
}

export function concat(parts: Field[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
