import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/model-archives';
import { tempDir } from '../../../test/helpers/temp';
import { tinyClipFiles, writeTinyClip } from '../../../test/helpers/tiny-clip/tiny-clip';
import { ModelCache } from './model-cache';
import { installModel, planInstall } from './model-install';
import type { DownloadProgress } from './model-download';
import { semanticConfigSchema } from './semantic-config';

const config = semanticConfigSchema.parse({ model: 'tests/tiny-clip' });
const total = [...tinyClipFiles().values()].reduce((n, d) => n + d.length, 0);

describe('installing the model from a folder or archive', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    await writeTinyClip(join(dir, 'drive', 'tiny-clip'));
    await packFolder(join(dir, 'drive'), 'tiny-clip', join(dir, 'drive', 'tiny-clip.zip'));
    await packFolder(join(dir, 'drive'), 'tiny-clip', join(dir, 'drive', 'tiny-clip.tar'));
  });
  afterAll(() => cleanup());

  const install = async (source: string, data: string) => {
    const cache = new ModelCache(join(dir, data));
    const plan = await planInstall(config, source);
    const seen: DownloadProgress[] = [];
    const marker = await installModel(config, cache, plan, (p) => seen.push(p), new AbortController().signal);
    return { cache, marker, seen };
  };

  it.each(['tiny-clip', 'tiny-clip.zip', 'tiny-clip.tar'])(
    'copies every file of %s into the cache with progress, byte for byte, and marks it complete with checksums',
    async (name) => {
      const { cache, marker, seen } = await install(join(dir, 'drive', name), `data-${name}`);
      expect(marker.sizeBytes).toBe(total);
      expect(seen.at(-1)).toMatchObject({ receivedBytes: total, totalBytes: total });
      for (const [file, data] of tinyClipFiles())
        expect(Buffer.compare(await readFile(cache.filePath(config, file)), Buffer.from(data))).toBe(0);
      expect(marker.files.every((f) => f.checksum?.kind === 'sha256')).toBe(true);
      expect(await cache.complete(config)).toEqual(marker);
    },
  );

  it("checks a copied Reelsync model folder against its manifest's sizes and checksums", async () => {
    const { cache } = await install(join(dir, 'drive', 'tiny-clip'), 'data-manifest');
    // The cache folder, carried to another machine: its manifest travels with it.
    const carried = cache.modelDir(config);
    await install(carried, 'data-carried');
    const onnx = cache.filePath(config, 'onnx/text_model_quantized.onnx');
    const bytes = await readFile(onnx);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    await writeFile(onnx, bytes);
    await expect(install(carried, 'data-damaged')).rejects.toThrow(
      /onnx\/text_model_quantized\.onnx in .* does not match its checksum .*nothing was installed/,
    );
    await writeFile(onnx, bytes.subarray(0, 10));
    await expect(planInstall(config, carried)).rejects.toThrow(
      /onnx\/text_model_quantized\.onnx in .* is 10 bytes, but the model's list says \d+: the copy is incomplete or damaged/,
    );
    await expect(planInstall({ ...config, model: 'other/model' }, carried)).rejects.toThrow(
      /holds the model tests\/tiny-clip, but this library uses other\/model/,
    );
  });

  it('names what is missing or wrong in plain words, before copying anything', async () => {
    const partial = join(dir, 'partial', 'tiny-clip');
    await writeTinyClip(partial);
    await rm(join(partial, 'tokenizer.json'));
    await rm(join(partial, 'onnx', 'vision_model_quantized.onnx'));
    await expect(planInstall(config, partial)).rejects.toThrow(
      /lacks tokenizer\.json \(the word list\), onnx\/vision_model_quantized\.onnx: copy the whole model folder/,
    );
    await expect(planInstall({ ...config, dtype: 'fp32' }, join(dir, 'drive', 'tiny-clip'))).rejects.toThrow(
      /lacks onnx\/text_model\.onnx, onnx\/vision_model\.onnx: it holds the q8 version of the model, and this library uses fp32/,
    );
    await expect(planInstall(config, join(dir, 'nowhere'))).rejects.toThrow(/nothing is at/);
    await expect(planInstall(config, join(dir, 'partial'))).rejects.toThrow(/lacks/);
    await writeFile(join(dir, 'model.tar.gz'), 'x');
    await expect(planInstall(config, join(dir, 'model.tar.gz'))).rejects.toThrow(
      /give a \.zip, a \.tar or the unpacked folder/,
    );
    await writeFile(join(dir, 'fake.zip'), 'not a zip at all');
    await expect(planInstall(config, join(dir, 'fake.zip'))).rejects.toThrow(/is not a zip archive/);
    const empty = join(dir, 'empty-folder');
    await writeTinyClip(empty);
    await expect(planInstall(config, join(dir, 'empty'))).rejects.toThrow(/nothing is at/);
    await writeFile(join(empty, 'onnx', 'vision_model_quantized.onnx'), 'text, not onnx');
    await expect(planInstall(config, empty)).rejects.toThrow(
      /vision_model_quantized\.onnx in .* is not an ONNX model file/,
    );
    await writeFile(join(empty, 'config.json'), '{ cut');
    await expect(planInstall(config, empty)).rejects.toThrow(/config\.json in .* is not readable JSON/);
  });
});
