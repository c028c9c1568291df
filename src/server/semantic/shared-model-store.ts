import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../common/private-files';
import type { BlobStore } from '../storage/blob-store';
import { ModelDownloadError } from './hub-download';
import { safeJson, type CompleteMarker, type ModelCache } from './model-cache';
import type { DownloadProgress } from './model-download';
import type { SemanticConfig } from './semantic-config';
import { hashingMeter } from '../../common/hashing-meter';

/** The team's models, beside the accounts' buckets (reelsync-<number>) in the same blob store. */
export const MODELS_BUCKET = 'reelsync-models';
const MANIFEST_BYTES_MAX = 1024 * 1024;

const manifestSchema = z.object({
  model: z.string(),
  revision: z.string(),
  dtype: z.string(),
  /** Where the process that published it fetched it from. */
  host: z.string(),
  files: z.array(
    z.object({ name: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
  publishedAt: z.string(),
});
type Manifest = z.infer<typeof manifestSchema>;

/**
 * A model's files in the team's blob store (S3, or the data folder every process shares), so one process of a team
 * server fetches it from the model host and the others copy it from here: `reelsync-models/<model>/<revision>/<dtype>/`
 * holds the files and, written last, `manifest.json` with each file's size and SHA-256, which every copy is checked
 * against.
 */
export class SharedModelStore {
  constructor(private readonly blobs: BlobStore) {}

  /** The manifest of this model, revision and dtype, or null when it was never published (or is unreadable). */
  async manifest(config: SemanticConfig): Promise<Manifest | null> {
    const blob = this.blob(config, 'manifest.json');
    const size = await this.blobs.size(MODELS_BUCKET, blob);
    if (size === null || size > MANIFEST_BYTES_MAX) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of this.blobs.read(MODELS_BUCKET, blob)) chunks.push(chunk as Buffer);
    const parsed = manifestSchema.safeParse(safeJson(Buffer.concat(chunks).toString('utf8')));
    if (!parsed.success) return null;
    const m = parsed.data;
    return m.model === config.model && m.revision === config.revision && m.dtype === config.dtype ? m : null;
  }

  /** Stores the cache's complete copy of the model, its manifest last (what makes it visible to the others). */
  async publish(config: SemanticConfig, cache: ModelCache, marker: CompleteMarker): Promise<void> {
    const files: Manifest['files'] = [];
    for (const file of marker.files) {
      const path = cache.filePath(config, file.name);
      files.push({ ...file, sha256: await sha256Of(path) });
      await this.blobs.writeFrom(MODELS_BUCKET, this.blob(config, file.name), createReadStream(path));
    }
    const manifest: Manifest = {
      model: config.model,
      revision: config.revision,
      dtype: config.dtype,
      host: marker.host,
      files,
      publishedAt: new Date().toISOString(),
    };
    await this.blobs.writeFrom(
      MODELS_BUCKET,
      this.blob(config, 'manifest.json'),
      Readable.from([Buffer.from(JSON.stringify(manifest))]),
    );
  }

  /**
   * Copies the published model into the cache, each file through a `.part` checked against the manifest's size and
   * SHA-256 before it takes its name; ends with the cache's complete marker.
   */
  async copyInto(
    config: SemanticConfig,
    cache: ModelCache,
    manifest: Manifest,
    onProgress: (p: DownloadProgress) => void,
    signal: AbortSignal,
  ): Promise<CompleteMarker> {
    const totalBytes = manifest.files.reduce((n, f) => n + f.size, 0);
    let receivedBytes = 0;
    for (const file of manifest.files) {
      const target = cache.filePath(config, file.name);
      if ((await stat(target).catch(() => null))?.size !== file.size) {
        const part = cache.partPath(config, file.name);
        await mkdir(dirname(part), { recursive: true, mode: PRIVATE_DIR });
        const hash = createHash('sha256');
        let bytes = 0;
        const count = hashingMeter(hash, (n) => {
          bytes += n;
          onProgress({ file: file.name, receivedBytes: receivedBytes + bytes, totalBytes });
        });
        try {
          await pipeline(
            this.blobs.read(MODELS_BUCKET, this.blob(config, file.name)),
            count,
            createWriteStream(part, { mode: PRIVATE_FILE }),
            { signal },
          );
          const sha256 = hash.digest('hex');
          if (bytes !== file.size || sha256 !== file.sha256)
            throw new ModelDownloadError(
              `the team store's ${file.name} is not what its manifest says (${bytes} bytes, sha256 ${sha256})`,
              false,
            );
          await rename(part, target);
        } finally {
          await rm(part, { force: true });
        }
      }
      receivedBytes += file.size;
      onProgress({ file: file.name, receivedBytes, totalBytes });
    }
    const marker: CompleteMarker = {
      model: config.model,
      revision: config.revision,
      dtype: config.dtype,
      host: manifest.host,
      sizeBytes: totalBytes,
      files: manifest.files.map(({ name, size }) => ({ name, size })),
      completedAt: new Date().toISOString(),
    };
    await cache.markComplete(config, marker);
    return marker;
  }

  private blob(config: SemanticConfig, file: string): string {
    return [config.model, config.revision, config.dtype, file].join('/');
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
