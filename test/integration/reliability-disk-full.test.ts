import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { copyFixture, fixturePath } from '../fixtures/media';
import { apiClient } from '../helpers/api';
import { startLibrary } from '../helpers/library';
import { cliSync, spawnServe, startService, type TestService } from '../helpers/service';
import { tempDir } from '../helpers/temp';

let dir: string;
let cleanup: () => Promise<void>;
const mounts: string[] = [];
/** Why a real small filesystem could not be made here; the tests then skip saying so. */
let noMount: string | null = null;

/** An 8 MiB tmpfs: a real filesystem that really fills up (ENOSPC from the kernel, nothing simulated). */
function smallDisk(path: string): void {
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', path], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`mount -t tmpfs failed: ${res.stderr.trim() || `exit ${res.status}`}`);
  mounts.push(path);
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-diskfull-'));
  const probe = join(dir, 'probe');
  await mkdir(probe);
  try {
    smallDisk(probe);
  } catch (err) {
    noMount = err instanceof Error ? err.message : String(err);
  }
});
afterAll(async () => {
  for (const m of mounts.reverse()) spawnSync('umount', ['-l', m]);
  await cleanup?.();
});

/** The service on a data folder of our choosing (the helper picks its own). */
async function serveAt(dataDir: string): Promise<{ origin: string; key: string; child: ChildProcess }> {
  const key = cliSync([
    'key',
    'create',
    '--data',
    dataDir,
    '--account',
    'test',
    '--interface',
    'library',
    '--credits',
    '100',
  ]);
  const config = join(dir, 'config.json');
  await writeFile(config, JSON.stringify({ indexer: { paused: true } }));
  const { child, origin } = await spawnServe(dataDir, 0, config);
  return { origin, key, child };
}

describe('disk full', () => {
  it('the service refuses an upload it cannot store with a clear 507, keeps nothing of it, and carries on', async (ctx) => {
    if (noMount) ctx.skip(); // reported below
    const disk = join(dir, 'service-disk');
    await mkdir(disk);
    smallDisk(disk);
    const dataDir = join(disk, 'data');
    const svc = await serveAt(dataDir);
    try {
      const api = apiClient(`${svc.origin}${API_BASE_PATH}`, svc.key);
      const first = await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'));
      expect(first.status).toBe(200);
      const big = await copyFixture('phoneH264Mp4', dir, 'too-big.mp4');
      await appendFile(big, randomBytes(12 * 1024 * 1024));
      const refused = await api.upload(big);
      expect(refused.status).toBe(507);
      expect(refused.json).toMatchObject({ success: false, data: null });
      expect(refused.json.msg).toMatch(/disk is full \(ENOSPC\)/);
      // Nothing half-written kept: no partial file in tmp, one video in the library, one blob folder.
      expect(await readdir(join(dataDir, 'tmp'))).toEqual([]);
      const listed = await api.post<{ total_count: number }>('/list_videos', { page: 1, size: 10 });
      expect(listed.json.data?.total_count).toBe(1);
      // The space the refused upload took is free again: a small upload still works.
      const after = await api.upload<{ videoNo: string }>(fixturePath('hevcMov'));
      expect(after.status).toBe(200);
    } finally {
      svc.child.kill('SIGTERM');
      await new Promise((r) => svc.child.once('exit', r));
    }
  }, 60_000);

  it('a download onto a full disk fails with a clear error and leaves no file that looks complete', async (ctx) => {
    if (noMount) ctx.skip();
    let service: TestService | undefined;
    try {
      service = await startService({ config: { indexer: { paused: true } } });
      const api = apiClient(service.baseUrl, service.key);
      const big = await copyFixture('phoneH264Mp4', dir, 'download-me.mp4');
      await appendFile(big, randomBytes(12 * 1024 * 1024));
      const up = await api.upload<{ videoNo: string }>(big);
      const meta = (
        await api.get<{ video_bucket: string; video_blob: string }>(
          `/get_metadata?video_no=${up.json.data?.videoNo ?? ''}`,
        )
      ).json.data;
      const dest = join(dir, 'client-disk');
      await mkdir(dest);
      smallDisk(dest);
      const lib = await startLibrary(
        join(dir, 'lib'),
        { baseUrl: service.baseUrl, key: service.key },
        { downloadAttempts: 2 },
      );
      try {
        const row = await lib.feature.downloads.start({
          kind: 'video',
          bucket: meta?.video_bucket ?? '',
          blob: meta?.video_blob ?? '',
          destDir: dest,
        });
        const done = await lib.feature.downloads.settled(row.id);
        expect(done.state).toBe('failed');
        expect(done.error).toMatch(/ENOSPC|no space|disk is full/i);
        // No file under the final name; whatever partial data exists is a .part file, never presented as done.
        const names = await readdir(dest);
        expect(names.filter((n) => !n.endsWith('.part'))).toEqual([]);
        expect(done.path === null || !existsSync(done.path)).toBe(true);
      } finally {
        await lib.stop();
      }
    } finally {
      await service?.stop();
    }
  }, 90_000);

  it('had a real small filesystem to fill (required under CI, which runs as root)', (ctx) => {
    // Not a silent skip: when mount is refused (no root, no CAP_SYS_ADMIN) the reason is printed here, and CI fails.
    if (noMount && process.env.CI !== 'true') {
      console.warn(`disk-full tests skipped: ${noMount}`);
      ctx.skip();
    }
    expect(noMount).toBeNull();
  });
});
