import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/** One file a model source holds: its path inside the source ('/'-separated) and its size. */
export interface SourceEntry {
  path: string;
  size: number;
}

/**
 * Where an editor brings a model from (a drive, on a machine without internet): a folder, a .zip or a .tar. Lists
 * its files without reading them, and opens one to read (a zip's deflated entry inflated on the way).
 */
export interface ModelSource {
  kind: 'folder' | 'zip' | 'tar';
  entries: SourceEntry[];
  read(path: string): Readable;
}

export class ModelSourceError extends Error {
  override name = 'ModelSourceError';
}

/** More files than any model folder holds: a whole drive picked by mistake is not walked to its end. */
const MAX_ENTRIES = 10_000;

export async function openModelSource(path: string): Promise<ModelSource> {
  const info = await stat(path).catch(() => null);
  if (!info) throw new ModelSourceError(`nothing is at ${path}`);
  if (info.isDirectory()) return folderSource(path);
  const lower = path.toLowerCase();
  if (lower.endsWith('.zip')) return zipSource(path, info.size);
  if (lower.endsWith('.tar')) return tarSource(path, info.size);
  if (/\.(tar\.gz|tgz|tar\.xz|tar\.bz2|7z|rar)$/.test(lower))
    throw new ModelSourceError(
      `${path} is a compressed archive this app does not open: give a .zip, a .tar or the unpacked folder`,
    );
  throw new ModelSourceError(`${path} is neither a folder nor a .zip or .tar archive`);
}

async function folderSource(root: string): Promise<ModelSource> {
  const entries: SourceEntry[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 6) return;
    for (const d of await readdir(dir, { withFileTypes: true })) {
      if (entries.length >= MAX_ENTRIES) return;
      const full = join(dir, d.name);
      if (d.isDirectory()) await walk(full, depth + 1);
      else if (d.isFile() || d.isSymbolicLink()) {
        const s = await stat(full).catch(() => null);
        if (s?.isFile()) entries.push({ path: relative(root, full).split(sep).join('/'), size: s.size });
      }
    }
  };
  await walk(root, 0);
  return { kind: 'folder', entries, read: (p) => createReadStream(join(root, ...p.split('/'))) };
}

/** A ustar/GNU/pax tar: 512-byte headers, each file's data after its header rounded up to 512. */
async function tarSource(path: string, fileSize: number): Promise<ModelSource> {
  const handle = await open(path, 'r');
  const entries: (SourceEntry & { offset: number })[] = [];
  try {
    const header = Buffer.alloc(512);
    let at = 0;
    let longName: string | null = null;
    while (at + 512 <= fileSize && entries.length < MAX_ENTRIES) {
      await handle.read(header, 0, 512, at);
      if (header.every((b) => b === 0)) break;
      if (!header.subarray(257, 262).toString('latin1').startsWith('ustar'))
        throw new ModelSourceError(`${path} is not a tar archive (or is damaged at byte ${at})`);
      const size = Number.parseInt(field(header, 124, 12) || '0', 8);
      const type = String.fromCharCode(header[156] ?? 0);
      const dataAt = at + 512;
      if (!Number.isSafeInteger(size) || dataAt + size > fileSize)
        throw new ModelSourceError(`${path} ends inside a file: the archive is incomplete`);
      if (type === 'L' || type === 'x') {
        const data = Buffer.alloc(size);
        await handle.read(data, 0, size, dataAt);
        longName = type === 'L' ? data.toString('utf8').replace(/\0.*$/s, '') : paxPath(data);
      } else if (type === '0' || type === '\0') {
        const prefix = field(header, 345, 155);
        const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
        entries.push({ path: name.replace(/^\.\//, ''), size, offset: dataAt });
        longName = null;
      } else longName = null;
      at = dataAt + Math.ceil(size / 512) * 512;
    }
  } finally {
    await handle.close();
  }
  const byPath = new Map(entries.map((e) => [e.path, e]));
  return {
    kind: 'tar',
    entries: entries.map(({ path: p, size }) => ({ path: p, size })),
    read: (p) => {
      const e = byPath.get(p);
      if (!e) throw new ModelSourceError(`the archive has no ${p}`);
      return createReadStream(path, { start: e.offset, end: e.offset + e.size - 1, highWaterMark: 1 << 20 });
    },
  };
}

function field(header: Buffer, start: number, length: number): string {
  return header
    .subarray(start, start + length)
    .toString('utf8')
    .replace(/\0.*$/s, '')
    .trim();
}

function paxPath(data: Buffer): string | null {
  for (const line of data.toString('utf8').split('\n')) {
    const m = /^\d+ path=(.*)$/.exec(line);
    if (m?.[1]) return m[1];
  }
  return null;
}

/** A zip's central directory (at its end) lists every file; each is stored or deflated. */
async function zipSource(path: string, fileSize: number): Promise<ModelSource> {
  const handle = await open(path, 'r');
  const entries: (SourceEntry & { localAt: number; method: number; packed: number })[] = [];
  try {
    const tailSize = Math.min(fileSize, 65_557);
    const tail = Buffer.alloc(tailSize);
    await handle.read(tail, 0, tailSize, fileSize - tailSize);
    let eocd = -1;
    for (let i = tailSize - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    if (eocd < 0) throw new ModelSourceError(`${path} is not a zip archive (or it is incomplete)`);
    const count = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirAt = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || dirAt === 0xffffffff)
      throw new ModelSourceError(`${path} is a zip64 archive (over 4 GB): give the unpacked folder or a .tar`);
    if (dirAt + dirSize > fileSize) throw new ModelSourceError(`${path} is incomplete: its file list is cut off`);
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirAt);
    let at = 0;
    for (let n = 0; n < count && n < MAX_ENTRIES; n++) {
      if (dir.readUInt32LE(at) !== 0x02014b50) throw new ModelSourceError(`${path} has a damaged file list`);
      const method = dir.readUInt16LE(at + 10);
      const packed = dir.readUInt32LE(at + 20);
      const size = dir.readUInt32LE(at + 24);
      const nameLength = dir.readUInt16LE(at + 28);
      const extraLength = dir.readUInt16LE(at + 30);
      const commentLength = dir.readUInt16LE(at + 32);
      const localAt = dir.readUInt32LE(at + 42);
      const name = dir.subarray(at + 46, at + 46 + nameLength).toString('utf8');
      if (!name.endsWith('/')) entries.push({ path: name.replace(/^\.\//, ''), size, localAt, method, packed });
      at += 46 + nameLength + extraLength + commentLength;
    }
  } finally {
    await handle.close();
  }
  const byPath = new Map(entries.map((e) => [e.path, e]));
  return {
    kind: 'zip',
    entries: entries.map(({ path: p, size }) => ({ path: p, size })),
    read: (p) => {
      const e = byPath.get(p);
      if (!e) throw new ModelSourceError(`the archive has no ${p}`);
      if (e.method !== 0 && e.method !== 8)
        throw new ModelSourceError(`${p} is compressed in a way this app does not read (zip method ${e.method})`);
      return zipEntryStream(path, e);
    },
  };
}

/** The entry's data begins after its local header, whose name and extra lengths may differ from the directory's. */
function zipEntryStream(path: string, e: { localAt: number; method: number; packed: number; path: string }): Readable {
  const local = Buffer.alloc(30);
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  if (e.packed === 0) return out.end();
  void (async () => {
    const handle = await open(path, 'r');
    try {
      await handle.read(local, 0, 30, e.localAt);
      if (local.readUInt32LE(0) !== 0x04034b50) throw new ModelSourceError(`${e.path}: damaged zip entry`);
      const start = e.localAt + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      const raw = createReadStream(path, { start, end: start + e.packed - 1, highWaterMark: 1 << 20 });
      const body = e.method === 8 ? raw.pipe(createInflateRaw()) : raw;
      raw.on('error', (err: Error) => out.destroy(err));
      body.on('error', (err: Error) => out.destroy(err));
      body.pipe(out);
    } finally {
      await handle.close();
    }
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
