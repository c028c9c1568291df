// A service whose exiftool cannot be spawned (here: REELSYNC_EXIFTOOL names a file that is not executable, as a broken
// install or a missing perl would) still uploads and indexes; it only skips capture metadata, and says so in its log.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus } from '../helpers/api';
import { tempDir } from '../helpers/temp';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

let service: TestService;
let cleanup: () => Promise<void>;
let savedEnv: string | undefined;

beforeAll(async () => {
  const tmp = await tempDir('reelsync-no-exiftool-');
  cleanup = tmp.cleanup;
  const notExecutable = join(tmp.dir, 'exiftool');
  await writeFile(notExecutable, '#!/usr/bin/perl\n');
  await chmod(notExecutable, 0o644);
  // The service inherits this test process' environment (test/helpers/service.ts).
  savedEnv = process.env.REELSYNC_EXIFTOOL;
  process.env.REELSYNC_EXIFTOOL = notExecutable;
});
const testService = useService();
beforeAll(() => {
  service = testService();
});

afterAll(async () => {
  if (savedEnv === undefined) delete process.env.REELSYNC_EXIFTOOL;
  else process.env.REELSYNC_EXIFTOOL = savedEnv;
  await cleanup?.();
});

describe('the service without a working exiftool', () => {
  it('uploads and indexes phone footage, without its camera metadata, and keeps serving', async () => {
    const api = apiClient(service.baseUrl, service.key);
    const up = await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'));
    expect(up.status).toBe(200);
    const videoNo = up.json.data?.videoNo ?? '';
    const indexed = await waitForStatus(api, videoNo, 120_000);
    expect(indexed).toMatchObject({ status: 'PARSE', progress: 100 });
    // With exiftool the fixture's QuickTime Make/Model fill camera_model (service-library.test.ts); here nothing does.
    expect(indexed.camera_model ?? null).toBeNull();
    const again = await api.upload<{ videoNo: string }>(fixturePath('drawnTextMp4'));
    expect(await waitForStatus(api, again.json.data?.videoNo ?? '', 120_000)).toMatchObject({ status: 'PARSE' });
  }, 240_000);
});
