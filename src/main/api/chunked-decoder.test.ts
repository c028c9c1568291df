import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkedDecoder } from './chunked-decoder';
import { framingOf, parseResponseHead } from './response-head';

function encode(chunks: Buffer[], extras = ''): Buffer {
  const parts = chunks
    .filter((c) => c.length > 0)
    .map((c) => Buffer.concat([Buffer.from(`${c.length.toString(16)}${extras}\r\n`), c, Buffer.from('\r\n')]));
  return Buffer.concat([...parts, Buffer.from('0\r\nx-trailer: 1\r\n\r\n')]);
}

function decodeInPieces(wire: Buffer, cuts: number[]): { body: Buffer; done: boolean } {
  const d = new ChunkedDecoder();
  const out: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (wire.length + 1)).sort((a, b) => a - b), wire.length]) {
    out.push(...d.push(wire.subarray(at, Math.max(at, cut))).map((b) => Buffer.from(b)));
    at = Math.max(at, cut);
  }
  return { body: Buffer.concat(out), done: d.done };
}

describe('ChunkedDecoder', () => {
  it('gives back the body however the wire is split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (chunks, cuts, ext) => {
          const bufs = chunks.map((c) => Buffer.from(c));
          const { body, done } = decodeInPieces(encode(bufs, ext ? ';name=value' : ''), cuts);
          expect(done).toBe(true);
          expect(body.equals(Buffer.concat(bufs))).toBe(true);
        },
      ),
    );
  });

  it('is not done before the last chunk', () => {
    const wire = encode([Buffer.from('hello')]);
    expect(decodeInPieces(wire.subarray(0, wire.length - 2), []).done).toBe(false);
  });

  it('refuses malformed framing', () => {
    expect(() => new ChunkedDecoder().push(Buffer.from('zz\r\n'))).toThrow(/bad chunk size/);
    expect(() => new ChunkedDecoder().push(Buffer.from('2\r\nabc\r\n'))).toThrow(/longer than its size/);
    expect(() => new ChunkedDecoder().push(Buffer.from('0\r\n\r\nextra'))).toThrow(/after the last chunk/);
    expect(() => new ChunkedDecoder().push(Buffer.from('1'.repeat(5000)))).toThrow(/longer than 4096/);
  });
});

describe('response heads', () => {
  it('reads the status, lower-cases names and joins repeats', () => {
    const head = parseResponseHead('HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-1/2\r\nX-A: 1\r\nx-a: 2');
    expect(head).toEqual({ status: 206, headers: { 'content-range': 'bytes 0-1/2', 'x-a': '1, 2' } });
  });

  it('refuses what is not HTTP/1.x', () => {
    expect(() => parseResponseHead('SSH-2.0-OpenSSH')).toThrow(/not an HTTP/);
    expect(() => parseResponseHead('HTTP/1.1 200 OK\r\nno colon here')).toThrow(/malformed/);
  });

  it('tells the body framing', () => {
    expect(framingOf({ status: 200, headers: { 'content-length': '10' } })).toEqual({ type: 'length', bytes: 10 });
    expect(framingOf({ status: 200, headers: { 'content-length': '10, 10' } })).toEqual({ type: 'length', bytes: 10 });
    expect(framingOf({ status: 200, headers: { 'transfer-encoding': 'chunked', 'content-length': '5' } })).toEqual({
      type: 'chunked',
    });
    expect(framingOf({ status: 200, headers: {} })).toEqual({ type: 'until-close' });
    expect(framingOf({ status: 204, headers: {} })).toEqual({ type: 'length', bytes: 0 });
    expect(() => framingOf({ status: 200, headers: { 'content-length': '10, 11' } })).toThrow(/bad content-length/);
    expect(() => framingOf({ status: 200, headers: { 'transfer-encoding': 'gzip' } })).toThrow(/unsupported/);
  });
});
