import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import { FACE_MODEL } from '../../src/server/indexer/analyzers/face-match';
import { AnalysisWorker, AnalysisWorkerExited } from '../../src/server/indexer/worker/analysis-host';
import { startService } from '../../src/server/service';
import { API_BASE_PATH, type UploadedVideo } from '../../src/shared/api-types';
import { DRAWN_TEXT, ensurePhotoClip, fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus } from '../helpers/api';
import { tempDir } from '../helpers/temp';

const log = pino({ level: 'silent' });
const cleanups: (() => Promise<void>)[] = [];
let scratch = '';

async function workDir(): Promise<string> {
  const { dir, cleanup } = await tempDir('reelsync-analysis-');
  cleanups.push(cleanup);
  return dir;
}

/**
 * Stand-ins for a broken worker, as plain JS modules speaking the real protocol: one that dies in the middle of a job
 * (after reporting progress), one that never answers (a hung analysis).
 */
const DYING_WORKER = `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (m) => {
  if (m.type !== 'analyze') return;
  parentPort.postMessage({ type: 'progress', id: m.id, percent: 12, stage: 'segmenting' });
  setTimeout(() => process.exit(7), 20);
});`;
const HUNG_WORKER = `import { parentPort } from 'node:worker_threads';
parentPort.on('message', () => {});`;

async function fixtureWorker(name: string, source: string): Promise<URL> {
  const file = join(scratch, name);
  await writeFile(file, source);
  return pathToFileURL(file);
}

beforeAll(async () => {
  scratch = await workDir();
});

afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

describe('AnalysisWorker with the real analysis thread', () => {
  const host = new AnalysisWorker({ log });
  afterAll(() => host.close());

  it('analyzes in its thread with progress, and keeps that thread (and its analyzers) across jobs', async () => {
    const progress: number[] = [];
    const result = await host.analyze({
      videoPath: fixturePath('drawnTextMp4'),
      workDir: await workDir(),
      onProgress: (p) => progress.push(p),
    });
    expect(result.segments[0]?.ocrText).toBe(DRAWN_TEXT);
    expect(result.missingEngines).toEqual([]);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[progress.length - 1]).toBe(100);

    const photos = await host.analyze({ videoPath: await ensurePhotoClip(), workDir: await workDir() });
    // The detector's own labels, beside the descriptors (colours, people, motion) the segment also carries.
    const detected = photos.segments.flatMap((s) => s.labels.filter((l) => l.source.startsWith('objects:')));
    expect(detected.map((l) => l.label)).toContain('motorcycle');
    expect(photos.segments[0]?.faces[0]?.model).toBe(FACE_MODEL);
    expect(photos.segments[0]?.faces[0]?.descriptor.length).toBe(128);
    expect(host.starts).toBe(1);
  });

  it("forwards an abort: the job rejects with the caller's reason and the thread stays usable", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = host.analyze({
      videoPath: await ensurePhotoClip(),
      workDir: await workDir(),
      signal: controller.signal,
      onProgress: (_p, stage) => {
        if (stage === 'analyzing') controller.abort(new Error('stop now'));
      },
    });
    await expect(run).rejects.toThrow('stop now');
    expect(Date.now() - started).toBeLessThan(5000);
    const again = await host.analyze({ videoPath: fixturePath('drawnTextMp4'), workDir: await workDir() });
    expect(again.segments[0]?.ocrText).toBe(DRAWN_TEXT);
    expect(host.starts).toBe(1);
  });

  it('rejects what cannot cross a thread, and everything once closed', async () => {
    await expect(
      host.analyze({ videoPath: fixturePath('drawnTextMp4'), workDir: scratch, analyzers: [] }),
    ).rejects.toThrow(TypeError);
    const closing = new AnalysisWorker({ log });
    await closing.close();
    await expect(closing.analyze({ videoPath: fixturePath('drawnTextMp4'), workDir: scratch })).rejects.toThrow(
      'closed',
    );
  });
});

describe('AnalysisWorker when its thread dies or hangs', () => {
  it('rejects the running job when the thread dies, and starts a new thread for the next job', async () => {
    const host = new AnalysisWorker({ log, entry: await fixtureWorker('dying.mjs', DYING_WORKER) });
    const progress: number[] = [];
    const first = host.analyze({ videoPath: 'x.mp4', workDir: scratch, onProgress: (p) => progress.push(p) });
    await expect(first).rejects.toThrow(AnalysisWorkerExited);
    await expect(first).rejects.toThrow('exited with code 7');
    expect(progress).toEqual([12]);
    await expect(host.analyze({ videoPath: 'x.mp4', workDir: scratch })).rejects.toThrow(AnalysisWorkerExited);
    expect(host.starts).toBe(2);
    await host.close();
  });

  it("terminates a thread that does not stop within the abort grace, rejecting with the caller's reason", async () => {
    const host = new AnalysisWorker({
      log,
      entry: await fixtureWorker('hung.mjs', HUNG_WORKER),
      abortGraceMs: 200,
      closeGraceMs: 200,
    });
    const controller = new AbortController();
    const run = host.analyze({ videoPath: 'x.mp4', workDir: scratch, signal: controller.signal });
    const started = Date.now();
    controller.abort(new Error('cancelled by the user'));
    await expect(run).rejects.toThrow('cancelled by the user');
    expect(Date.now() - started).toBeLessThan(3000);
    // The next job gets a fresh thread; close() ends a thread that ignores `close` too.
    const next = host.analyze({ videoPath: 'x.mp4', workDir: scratch });
    expect(host.starts).toBe(2);
    await host.close();
    await expect(next).rejects.toThrow('closed');
  });
});

describe('the service when its analysis thread dies', () => {
  it('retries the index job, then marks the video FAIL with the cause: never a hung job', async () => {
    const { dir, cleanup } = await tempDir('reelsync-analysis-service-');
    cleanups.push(cleanup);
    const dying = new AnalysisWorker({ log, entry: await fixtureWorker('dying-service.mjs', DYING_WORKER) });
    const service = await startService({
      dataDir: dir,
      config: parseConfig({ indexer: { maxAttempts: 2 } }),
      log,
      analyze: dying.analyze,
    });
    try {
      const account = await service.ctx.accounts.ensure('crash');
      await service.ctx.accounts.setBalance(account.id, 100_000_000);
      const key = await service.ctx.accounts.createKey(account.id, 'library');
      const api = apiClient(`${service.url}${API_BASE_PATH}`, key);
      const upload = await api.upload<UploadedVideo>(fixturePath('drawnTextMp4'));
      const videoNo = upload.json.data?.videoNo ?? '';
      const meta = await waitForStatus(api, videoNo, 30_000);
      expect(meta.status).toBe('FAIL');
      const job = (await service.ctx.sql.get("SELECT state, attempts, last_error FROM jobs WHERE kind = 'index'")) as {
        state: string;
        attempts: number;
        last_error: string;
      };
      expect(job).toMatchObject({ state: 'dead', attempts: 2 });
      expect(job.last_error).toContain('exited with code 7');
      expect(dying.starts).toBe(2);
    } finally {
      await service.close();
      await dying.close();
    }
  });
});
