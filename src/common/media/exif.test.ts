import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/fixtures/media';
import { tempDir } from '../../../test/helpers/temp';
import { MetadataReader, type CaptureMetadata } from './exif';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-exif-'));
});
afterAll(async () => cleanup());

async function readWith(env: NodeJS.ProcessEnv): Promise<{ reader: MetadataReader; meta: CaptureMetadata }> {
  const reader = new MetadataReader(pino({ level: 'silent' }), env);
  await reader.start();
  try {
    return { reader, meta: await reader.read(fixturePath('phoneH264Mp4')) };
  } finally {
    await reader.stop();
  }
}

describe('MetadataReader', () => {
  it('reads the camera of phone footage with the vendored exiftool', async () => {
    const { reader, meta } = await readWith({});
    expect(reader.unavailableReason).toBeNull();
    expect(meta.cameraModel).toMatch(/\w/);
  });

  // Before: exiftool-vendored's child emitted an unhandled 'error' (EACCES/ENOENT) and this process died.
  it('skips metadata with a reason when exiftool cannot be spawned (not executable, missing)', async () => {
    const notExecutable = join(dir, 'exiftool');
    await writeFile(notExecutable, '#!/usr/bin/perl\n');
    await chmod(notExecutable, 0o644);
    for (const [path, code] of [
      [notExecutable, 'EACCES'],
      [join(dir, 'missing'), 'ENOENT'],
    ] as const) {
      const { reader, meta } = await readWith({ REELSYNC_EXIFTOOL: path });
      expect(meta).toEqual({});
      expect(reader.unavailableReason).toContain(code);
    }
  });
});
