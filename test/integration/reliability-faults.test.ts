import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFaultScenario } from '../helpers/fault-scenario';
import { tempDir } from '../helpers/temp';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-faults-'));
});
afterAll(async () => {
  await cleanup?.();
});

describe('sync and downloads through a faulty network', () => {
  it('uploads 30 files exactly once and downloads 30 byte-identical, over resets, stalls, slow answers, 5xx, 429 and truncation', async () => {
    const r = await runFaultScenario({
      dir,
      uploads: 30,
      downloads: 30,
      seed: 8,
      // Where a lost answer could duplicate or corrupt: the upload itself, the dedupe lookup, the download.
      targets: /\/(upload|list_videos|download)$/,
      rates: { reset: 0.05, stall: 0.03, slow: 0.05, error5xx: 0.05, rateLimit: 0.05, truncate: 0.05 },
      timeoutMs: 100_000,
    });
    console.log(`faults: ${JSON.stringify(r)}`);
    expect(r.failedUploads).toEqual([]);
    expect(r.missing).toEqual([]);
    expect(r.duplicates).toEqual([]);
    expect(r.uploaded).toBe(30);
    expect(r.failedDownloads).toEqual([]);
    expect(r.corrupt).toEqual([]);
    expect(r.downloadsDone).toBe(30);
    // Every kind of fault actually happened, and the clients had to retry.
    for (const [kind, n] of Object.entries(r.faults)) expect(n, kind).toBeGreaterThan(0);
    expect(r.uploadRequests).toBeGreaterThan(30);
    expect(r.downloadRequests).toBeGreaterThan(30);
  }, 170_000);
});
