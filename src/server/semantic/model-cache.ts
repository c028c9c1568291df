import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir } from '../../common/private-files';
import type { SemanticConfig } from './semantic-config';

/**
 * The model cache in the data folder: `<data>/models/<owner>/<name>/<file>` (the layout transformers.js reads with
 * env.localModelPath = `<data>/models`), a `.part` beside each file being downloaded, and two markers: the model is
 * complete (what was downloaded, from where), and a download was asked for (so a restart goes on with it).
 */
export class ModelCache {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'models');
  }

  modelDir(config: Pick<SemanticConfig, 'model'>): string {
    return join(this.root, ...config.model.split('/'));
  }

  filePath(config: Pick<SemanticConfig, 'model'>, file: string): string {
    return join(this.modelDir(config), ...file.split('/'));
  }

  partPath(config: Pick<SemanticConfig, 'model'>, file: string): string {
    return `${this.filePath(config, file)}.part`;
  }

  /** What the complete marker says, if it is for this model, revision and dtype. */
  async complete(config: SemanticConfig): Promise<CompleteMarker | null> {
    const text = await readFile(this.completeMarker(config), 'utf8').catch(() => null);
    if (text === null) return null;
    const parsed = completeMarkerSchema.safeParse(safeJson(text));
    if (!parsed.success) return null;
    const m = parsed.data;
    return m.model === config.model && m.revision === config.revision && m.dtype === config.dtype ? m : null;
  }

  async markComplete(config: SemanticConfig, marker: CompleteMarker): Promise<void> {
    await writeFile(this.completeMarker(config), JSON.stringify(marker), { mode: 0o600 });
    await rm(this.requestedMarker(config), { force: true });
  }

  async markRequested(config: SemanticConfig): Promise<void> {
    await ensurePrivateDir(this.modelDir(config));
    await writeFile(this.requestedMarker(config), JSON.stringify({ at: new Date().toISOString() }), { mode: 0o600 });
  }

  /** The editor cancelled: the next start does not resume the download (its part files stay for a later one). */
  async unmarkRequested(config: SemanticConfig): Promise<void> {
    await rm(this.requestedMarker(config), { force: true });
  }

  async requested(config: SemanticConfig): Promise<boolean> {
    return (await readFile(this.requestedMarker(config)).catch(() => null)) !== null;
  }

  private completeMarker(config: SemanticConfig): string {
    return join(this.modelDir(config), '.reelsync-complete.json');
  }

  private requestedMarker(config: SemanticConfig): string {
    return join(this.modelDir(config), '.reelsync-download-requested');
  }
}

const checksumSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sha256'), hex: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.object({ kind: z.literal('git-blob-sha1'), hex: z.string().regex(/^[0-9a-f]{40}$/) }),
]);

/**
 * What the cache holds once complete. Each file's checksum (the host's, or the sha256 of an install from a folder) lets
 * a copy of this folder, brought to another machine on a drive, be checked there (model-install.ts).
 */
export const completeMarkerSchema = z.object({
  model: z.string(),
  revision: z.string(),
  dtype: z.string(),
  host: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  files: z.array(
    z.object({ name: z.string(), size: z.number().int().nonnegative(), checksum: checksumSchema.optional() }),
  ),
  completedAt: z.string(),
});
export type CompleteMarker = z.infer<typeof completeMarkerSchema>;

/** The JSON value of a text, or null when it is not JSON (a marker or manifest cut short). */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
