// A file stored as independently deflated blocks, so that a byte range can be read without inflating the whole file.
// The packed app ships WordNet's noun files this way (build/wordnet-pack.ts): 10 MB of text in 2.7 MB, with the
// positioned reads the thesaurus does (wordnet.ts) inflating one or two 16 KiB blocks. Such a file keeps its
// name (the asar header lists the unpacked files by name) and is told from a plain one by its first bytes.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const MAGIC = Buffer.from('RSBLOCK1');
/** Magic, block size, uncompressed length, block count. */
const HEADER_BYTES = MAGIC.length + 12;
const CACHED_BLOCKS = 32;

/** `data` as blocks of `blockSize` bytes, each deflated on its own, with a table of where each block starts. */
export function compressBlocks(data: Buffer, blockSize: number): Buffer {
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length; at += blockSize)
    blocks.push(deflateRawSync(data.subarray(at, at + blockSize), { level: 9 }));
  const head = Buffer.alloc(HEADER_BYTES + (blocks.length + 1) * 4);
  MAGIC.copy(head);
  head.writeUInt32LE(blockSize, MAGIC.length);
  head.writeUInt32LE(data.length, MAGIC.length + 4);
  head.writeUInt32LE(blocks.length, MAGIC.length + 8);
  let end = 0;
  blocks.forEach((block, i) => {
    head.writeUInt32LE(end, HEADER_BYTES + i * 4);
    end += block.length;
  });
  head.writeUInt32LE(end, HEADER_BYTES + blocks.length * 4);
  return Buffer.concat([head, ...blocks]);
}

/** A read-only file read by byte ranges, or whole. */
export interface RandomAccessFile {
  /** Up to `length` bytes from `offset` (fewer at the end of the file); may share memory with a cache: read only. */
  read(offset: number, length: number): Buffer;
  readAll(): Buffer;
  close(): void;
}

/** `path`, block-compressed (it starts with the magic) or plain. */
export function openRandomAccess(path: string): RandomAccessFile {
  const fd = openSync(path, 'r');
  const start = Buffer.alloc(MAGIC.length);
  const n = readSync(fd, start, 0, start.length, 0);
  closeSync(fd);
  return n === MAGIC.length && start.equals(MAGIC) ? new BlockCompressedFile(path) : plainFile(path);
}

function plainFile(path: string): RandomAccessFile {
  let fd: number | undefined;
  return {
    read(offset, length) {
      fd ??= openSync(path, 'r');
      const buf = Buffer.alloc(length);
      return buf.subarray(0, readSync(fd, buf, 0, length, offset));
    },
    readAll: () => readFileSync(path),
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

class BlockCompressedFile implements RandomAccessFile {
  private readonly fd: number;
  private readonly blockSize: number;
  private readonly length: number;
  /** Where each block starts in the file, and where the last one ends. */
  private readonly starts: number[];
  private readonly cache = new Map<number, Buffer>();

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'r');
    try {
      const head = this.bytes(0, HEADER_BYTES);
      if (!head.subarray(0, MAGIC.length).equals(MAGIC)) this.fail('it is not a block-compressed file');
      this.blockSize = head.readUInt32LE(MAGIC.length);
      this.length = head.readUInt32LE(MAGIC.length + 4);
      const count = head.readUInt32LE(MAGIC.length + 8);
      if (this.blockSize === 0 || count !== Math.ceil(this.length / this.blockSize))
        this.fail(`${count} blocks of ${this.blockSize} bytes cannot hold ${this.length} bytes`);
      const table = this.bytes(HEADER_BYTES, (count + 1) * 4);
      const dataStart = HEADER_BYTES + table.length;
      this.starts = Array.from({ length: count + 1 }, (_, i) => dataStart + table.readUInt32LE(i * 4));
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  read(offset: number, length: number): Buffer {
    const end = Math.min(offset + length, this.length);
    if (offset >= end) return Buffer.alloc(0);
    const first = Math.floor(offset / this.blockSize);
    const last = Math.floor((end - 1) / this.blockSize);
    const start = offset - first * this.blockSize;
    if (first === last) return this.block(first).subarray(start, start + end - offset);
    const parts: Buffer[] = [];
    for (let i = first; i <= last; i++) parts.push(this.block(i));
    return Buffer.concat(parts).subarray(start, start + end - offset);
  }

  readAll(): Buffer {
    return this.read(0, this.length);
  }

  close(): void {
    closeSync(this.fd);
  }

  private block(i: number): Buffer {
    const cached = this.cache.get(i);
    if (cached) return cached;
    const start = this.starts[i]!;
    const block = inflateRawSync(this.bytes(start, this.starts[i + 1]! - start));
    const expected = Math.min(this.blockSize, this.length - i * this.blockSize);
    if (block.length !== expected) this.fail(`block ${i} holds ${block.length} bytes, not ${expected}`);
    if (this.cache.size >= CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(i, block);
    return block;
  }

  private bytes(position: number, length: number): Buffer {
    const buf = Buffer.alloc(length);
    const n = readSync(this.fd, buf, 0, length, position);
    if (n !== length) this.fail(`it ends at ${position + n}, before byte ${position + length}`);
    return buf;
  }

  private fail(why: string): never {
    throw new Error(`${this.path} cannot be read: ${why}`);
  }
}
