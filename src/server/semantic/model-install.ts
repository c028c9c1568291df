import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../common/private-files';
import { hashingMeter } from '../../common/hashing-meter';
import { contentHash, type StatedChecksum } from './file-checksum';
import { modelFiles } from './hub-files';
import { completeMarkerSchema, safeJson, type CompleteMarker, type ModelCache } from './model-cache';
import type { DownloadProgress } from './model-download';
import { ModelSourceError, openModelSource, type ModelSource } from './model-source';
import type { SemanticConfig } from './semantic-config';

/** What one file of the model is for, to name it plainly when it is missing. */
const ROLE: Record<string, string> = {
  'config.json': "the model's settings",
  'tokenizer.json': 'the word list',
  'tokenizer_config.json': "the word list's settings",
  'preprocessor_config.json': 'how pictures are prepared',
};

interface PlannedFile {
  name: string;
  entry: string;
  size: number;
  /** From a manifest the folder carries (a Reelsync model folder copied from another machine). */
  checksum: StatedChecksum | null;
}

/** A model source checked and ready to copy: every file the downloader would fetch, found with its size. */
export interface InstallPlan {
  source: ModelSource;
  path: string;
  files: PlannedFile[];
  totalBytes: number;
}

/**
 * Checks a folder or archive an editor picked before anything is copied: it must hold the files the downloader fetches
 * (modelFiles), under one folder, none empty, the JSON files readable and the ONNX files ONNX; when it carries
 * Reelsync's manifest (.reelsync-complete.json, the cache of another machine), the model it names and each file's
 * size must match. Throws ModelSourceError in plain words, naming what is missing or wrong.
 */
export async function planInstall(config: SemanticConfig, path: string): Promise<InstallPlan> {
  const source = await openModelSource(path);
  const names = modelFiles(config);
  const sizes = new Map(source.entries.map((e) => [e.path, e.size]));
  const prefix = modelRoot(source, names);
  if (prefix === null)
    throw new ModelSourceError(
      `${path} holds no model: no config.json in it. A model folder holds ${names.join(', ')}`,
    );
  const missing = names.filter((n) => !sizes.has(prefix + n));
  if (missing.length > 0) throw new ModelSourceError(missingWords(path, prefix, missing, sizes, config));

  const manifest = await readManifest(source, prefix, sizes);
  if (manifest && manifest.model !== config.model)
    throw new ModelSourceError(`${path} holds the model ${manifest.model}, but this library uses ${config.model}`);
  if (manifest && manifest.dtype !== config.dtype)
    throw new ModelSourceError(
      `${path} holds the ${manifest.dtype} version of the model; this library uses ${config.dtype}`,
    );

  const files: PlannedFile[] = [];
  for (const name of names) {
    const size = sizes.get(prefix + name) ?? 0;
    if (size === 0) throw new ModelSourceError(`${name} in ${path} is empty: the copy on the drive is incomplete`);
    const listed = manifest?.files.find((f) => f.name === name);
    if (listed && listed.size !== size)
      throw new ModelSourceError(
        `${name} in ${path} is ${size} bytes, but the model's list says ${listed.size}: the copy is incomplete or damaged`,
      );
    files.push({ name, entry: prefix + name, size, checksum: listed?.checksum ?? null });
  }
  for (const f of files) await checkContent(source, f, path);
  return { source, path, files, totalBytes: files.reduce((n, f) => n + f.size, 0) };
}

/**
 * Copies a checked source into the cache, hashing as it goes: a file whose checksum differs from its manifest's is
 * refused (and its copy deleted); each lands under its final name only once whole. Ends with the complete marker,
 * which records every file's sha256 so this install can itself be carried to another machine and checked.
 */
export async function installModel(
  config: SemanticConfig,
  cache: ModelCache,
  plan: InstallPlan,
  onProgress: (p: DownloadProgress) => void,
  signal: AbortSignal,
): Promise<CompleteMarker> {
  let receivedBytes = 0;
  const done: CompleteMarker['files'] = [];
  for (const f of plan.files) {
    const part = cache.partPath(config, f.name);
    await mkdir(dirname(part), { recursive: true, mode: PRIVATE_DIR });
    const checksum: StatedChecksum = f.checksum ?? { kind: 'sha256', hex: '' };
    const hash = contentHash(checksum, f.size);
    await pipeline(
      plan.source.read(f.entry),
      hashingMeter(hash, (bytes) => {
        receivedBytes += bytes;
        onProgress({ file: f.name, receivedBytes, totalBytes: plan.totalBytes });
      }),
      createWriteStream(part, { mode: PRIVATE_FILE }),
      { signal },
    );
    const got = (await stat(part)).size;
    const digest = hash.digest('hex');
    if (got !== f.size || (f.checksum && digest !== f.checksum.hex)) {
      await rm(part, { force: true });
      throw new ModelSourceError(
        got !== f.size
          ? `${f.name} in ${plan.path} could not be read whole (${got} of ${f.size} bytes): the drive or archive is damaged`
          : `${f.name} in ${plan.path} does not match its checksum (${f.checksum?.kind} ${f.checksum?.hex}, got ${digest}): the copy is damaged; nothing was installed`,
      );
    }
    await rename(part, cache.filePath(config, f.name));
    done.push({ name: f.name, size: f.size, checksum: f.checksum ?? { kind: 'sha256', hex: digest } });
  }
  const marker: CompleteMarker = {
    model: config.model,
    revision: config.revision,
    dtype: config.dtype,
    host: plan.path,
    sizeBytes: plan.totalBytes,
    files: done,
    completedAt: new Date().toISOString(),
  };
  await cache.markComplete(config, marker);
  return marker;
}

/** The folder inside the source that holds the model: the one whose config.json has the most model files beside it. */
function modelRoot(source: ModelSource, names: string[]): string | null {
  const paths = new Set(source.entries.map((e) => e.path));
  let best: { prefix: string; found: number } | null = null;
  for (const e of source.entries) {
    if (e.path !== 'config.json' && !e.path.endsWith('/config.json')) continue;
    const prefix = e.path.slice(0, -'config.json'.length);
    const found = names.filter((n) => paths.has(prefix + n)).length;
    if (!best || found > best.found || (found === best.found && prefix.length < best.prefix.length))
      best = { prefix, found };
  }
  return best?.prefix ?? null;
}

function missingWords(
  path: string,
  prefix: string,
  missing: string[],
  sizes: Map<string, number>,
  config: SemanticConfig,
): string {
  const where = prefix ? `${path} (in ${prefix.replace(/\/$/, '')})` : path;
  const named = missing.map((n) => (ROLE[n] ? `${n} (${ROLE[n]})` : n)).join(', ');
  const otherDtype = (['q8', 'fp32', 'fp16'] as const).find(
    (d) => d !== config.dtype && modelFiles({ dtype: d }).every((n) => sizes.has(prefix + n)),
  );
  const hint = otherDtype
    ? `: it holds the ${otherDtype} version of the model, and this library uses ${config.dtype}`
    : `: copy the whole model folder (${config.model})`;
  return `${where} lacks ${named}${hint}`;
}

async function readManifest(
  source: ModelSource,
  prefix: string,
  sizes: Map<string, number>,
): Promise<CompleteMarker | null> {
  const entry = `${prefix}.reelsync-complete.json`;
  const size = sizes.get(entry);
  if (size === undefined || size > 1_000_000) return null;
  const parsed = completeMarkerSchema.safeParse(safeJson((await readAll(source, entry)).toString('utf8')));
  if (!parsed.success) throw new ModelSourceError(`the model's list (${entry}) is damaged: it cannot be checked`);
  return parsed.data;
}

/** JSON files must parse; an ONNX file starts with its ir_version field (protobuf field 1, varint: byte 0x08). */
async function checkContent(source: ModelSource, f: PlannedFile, path: string): Promise<void> {
  if (f.name.endsWith('.json')) {
    if (f.size > 50_000_000) return;
    if (safeJson((await readAll(source, f.entry)).toString('utf8')) === null)
      throw new ModelSourceError(`${f.name} in ${path} is not readable JSON: the copy is damaged`);
  } else if (f.name.endsWith('.onnx')) {
    const first = await firstByte(source, f.entry);
    if (first !== 0x08) throw new ModelSourceError(`${f.name} in ${path} is not an ONNX model file`);
  }
}

async function readAll(source: ModelSource, entry: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.read(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function firstByte(source: ModelSource, entry: string): Promise<number | undefined> {
  const stream = source.read(entry);
  try {
    for await (const chunk of stream) return (chunk as Buffer)[0];
    return undefined;
  } finally {
    stream.destroy();
  }
}
