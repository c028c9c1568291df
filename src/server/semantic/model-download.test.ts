import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { tinyClipFiles, writeTinyClip } from '../../../test/helpers/tiny-clip/tiny-clip';
import { statedChecksum } from './file-checksum';
import { ModelCache } from './model-cache';
import { downloadModel, type DownloadProgress } from './model-download';
import { semanticConfigSchema } from './semantic-config';

describe('model download from a folder host', () => {
  it('copies the model into the cache with progress and marks it complete', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTinyClip(join(dir, 'host', 'tests', 'tiny-clip'));
      const config = semanticConfigSchema.parse({ host: join(dir, 'host'), model: 'tests/tiny-clip' });
      const cache = new ModelCache(join(dir, 'data'));
      expect(await cache.complete(config)).toBeNull();
      const seen: DownloadProgress[] = [];
      const marker = await downloadModel(config, cache, (p) => seen.push(p), new AbortController().signal);
      const files = tinyClipFiles();
      expect(marker.sizeBytes).toBe([...files.values()].reduce((n, d) => n + d.length, 0));
      expect(seen.at(-1)?.receivedBytes).toBe(marker.sizeBytes);
      for (const [name, data] of files)
        expect(Buffer.compare(await readFile(cache.filePath(config, name)), Buffer.from(data))).toBe(0);
      expect(await cache.complete(config)).toEqual(marker);
      // Another revision is another model: not complete.
      expect(await cache.complete({ ...config, revision: 'v2' })).toBeNull();
    } finally {
      await cleanup();
    }
  });

  it('names the missing file of an incomplete folder', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const config = semanticConfigSchema.parse({ host: dir, model: 'tests/none' });
      await expect(
        downloadModel(config, new ModelCache(join(dir, 'data')), () => {}, new AbortController().signal),
      ).rejects.toThrow(/the model folder has no config\.json/);
    } finally {
      await cleanup();
    }
  });
});

describe('semantic config', () => {
  it('refuses a relative folder, a model that is not owner/name, and an inverted calibration', () => {
    expect(semanticConfigSchema.safeParse({ host: 'models' }).success).toBe(false);
    expect(semanticConfigSchema.safeParse({ model: '../etc' }).success).toBe(false);
    expect(semanticConfigSchema.safeParse({ model: 'a/../b' }).success).toBe(false);
    expect(semanticConfigSchema.safeParse({ similarityFloor: 0.5, similarityCeiling: 0.4 }).success).toBe(false);
    expect(semanticConfigSchema.parse(undefined).host).toBe('https://huggingface.co');
  });
});

describe('stated checksums', () => {
  it("reads the Hub's LFS sha256 first, then a git blob id or sha256 ETag, and nothing else", () => {
    const sha = 'a'.repeat(64);
    const git = 'b'.repeat(40);
    expect(statedChecksum({ 'x-linked-etag': `"${sha}"`, etag: `"${git}"` })).toEqual({ kind: 'sha256', hex: sha });
    expect(statedChecksum({ etag: `W/"${git}"` })).toEqual({ kind: 'git-blob-sha1', hex: git });
    expect(statedChecksum({ etag: `"${sha.toUpperCase()}"` })).toEqual({ kind: 'sha256', hex: sha });
    expect(statedChecksum({ etag: '"5d41-17ab"' })).toBeNull();
    expect(statedChecksum({})).toBeNull();
  });
});
