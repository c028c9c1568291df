import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiClient, waitForStatus } from '../helpers/api';
import { copyFixture, fixturePath } from '../fixtures/media';
import { startLibrary, type TestLibrary } from '../helpers/library';
import { startEngine, type TestEngine } from '../helpers/sync-engine';
import { tempDir } from '../helpers/temp';
import { useService } from '../helpers/use-service';
import type { TestService } from '../helpers/service';

/**
 * A refused key or an empty balance is met the same way by every job that needs the library (src/main/api/
 * job-outcome.ts): its queue pauses and the work stays queued, never failed for good; it goes on once resolved.
 */
const testService = useService();
let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;
let videoNo: string;

beforeAll(async () => {
  service = testService();
  ({ dir, cleanup } = await tempDir('reelsync-blocked-'));
  const api = apiClient(service.baseUrl, service.key);
  videoNo = (await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'))).json.data?.videoNo ?? '';
  expect((await waitForStatus(api, videoNo, 90_000)).status).toBe('PARSE');
});

afterAll(async () => {
  service?.setCredits('test', 100);
  await cleanup?.();
});

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const clipOf = (lib: TestLibrary) =>
  lib.feature.clips.save({
    videoNo,
    start: 0.5,
    end: 1.5,
    handles: 0,
    mode: 'copy',
    format: 'mp4',
    query: '',
    text: '',
    tags: [],
    notes: '',
  });

const contentStates = (t: TestEngine) =>
  (t.db.prepare('SELECT state FROM contents').all() as { state: string }[]).map((r) => r.state);

const openJobs = (lib: TestLibrary) =>
  lib.db.prepare(`SELECT kind, state FROM jobs WHERE kind IN ('download', 'clip') ORDER BY kind`).all();

describe('a blocked library pauses uploads, downloads and clips alike', () => {
  test('an empty balance: each job kind waits queued, and goes on once recharged', async () => {
    const sub = join(dir, 'balance');
    const folder = join(sub, 'footage');
    await mkdir(folder, { recursive: true });
    await copyFixture('vp9Mkv', folder);
    const lib = await startLibrary(sub, service, { blockedRecheckMs: 300 });
    const t = await startEngine(sub, service.baseUrl, service.key);
    try {
      service.setCredits('test', 0);
      const clip = clipOf(lib);
      await until('the library queue pauses', () => lib.feature.queue.paused()?.reason === 'insufficient-balance');
      const waiting = lib.feature.clips.get(clip.id);
      expect(waiting.state).not.toBe('failed');
      const download = lib.feature.downloads.get(waiting.download_id ?? -1);
      expect(download?.state).toBe('queued');
      expect(download?.error).toContain('Insufficient balance');
      expect(openJobs(lib)).toEqual([
        { kind: 'clip', state: 'queued' },
        { kind: 'download', state: 'queued' },
      ]);

      await t.engine.addFolder({ path: folder });
      await t.engine.scan();
      await until('the upload queue pauses', () => t.engine.queue.paused()?.reason === 'insufficient-balance');
      expect(contentStates(t)).toEqual(['queued']);

      service.setCredits('test', 100);
      const ready = await lib.feature.clips.settled(clip.id);
      expect(ready.state).toBe('ready');
      t.engine.resume();
      await until('the upload is done', () => ['indexing', 'indexed'].includes(contentStates(t)[0] ?? ''), 60_000);
    } finally {
      service.setCredits('test', 100);
      await t.stop();
      await lib.stop();
    }
  });

  test('a refused key: each job kind waits queued, and goes on after a start with a good key', async () => {
    const sub = join(dir, 'key');
    const folder = join(sub, 'footage');
    await mkdir(folder, { recursive: true });
    await copyFixture('hevcMov', folder);
    const refused = { baseUrl: service.baseUrl, key: 'not-a-key-of-this-service' };
    const lib = await startLibrary(sub, refused, { blockedRecheckMs: 60_000 });
    const clip = clipOf(lib);
    const t = await startEngine(sub, service.baseUrl, refused.key);
    try {
      await until('the library queue pauses', () => lib.feature.queue.paused()?.reason === 'unauthorized');
      expect(lib.feature.clips.get(clip.id).state).toBe('queued');
      expect(lib.feature.clips.get(clip.id).error).toContain('refused the API key');
      await t.engine.addFolder({ path: folder });
      await t.engine.scan();
      await until('the upload queue pauses', () => t.engine.queue.paused()?.reason === 'unauthorized');
      expect(contentStates(t)).toEqual(['queued']);
    } finally {
      await t.stop();
      await lib.stop();
    }
    const again = await startLibrary(sub, service);
    try {
      expect(again.feature.queue.paused()).toBeNull();
      expect((await again.feature.clips.settled(clip.id)).state).toBe('ready');
    } finally {
      await again.stop();
    }
  });
});
