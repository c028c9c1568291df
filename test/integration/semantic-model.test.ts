import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipItem, UploadedVideo } from '../../src/shared/api-types';
import type { SemanticState } from '../../src/shared/semantic-state';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { startModelHub, type ModelHub } from '../helpers/model-hub';
import { BLOB_BACKENDS, startService, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { clipAt } from '../fixtures/generated-clips';
import { flatColour } from '../fixtures/test-clips';
import { tempDir } from '../helpers/temp';
import { tinyClipFiles } from '../helpers/tiny-clip/tiny-clip';

const REPO = 'tests/tiny-clip';
const VISION = 'onnx/vision_model_quantized.onnx';
const TEXT = 'onnx/text_model_quantized.onnx';

function flatClip(file: string, colour: string): Promise<string> {
  return clipAt(flatColour(colour, '320x180'), file);
}

const semanticConfig = (host: string, pollMs?: number) => ({
  semantic: { host, model: REPO, similarityFloor: 0, similarityCeiling: 0.6, ...(pollMs ? { pollMs } : {}) },
});

async function stateOf(api: ApiClient): Promise<SemanticState> {
  const res = await api.get<SemanticState>('/semantic');
  expect(res.status).toBe(200);
  return res.json.data!;
}

/** Polls GET /semantic until `done` holds; returns every state seen on the way. */
async function waitForState(
  api: ApiClient,
  done: (s: SemanticState) => boolean,
  timeoutMs = 60_000,
): Promise<SemanticState[]> {
  const seen: SemanticState[] = [];
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = await stateOf(api);
    seen.push(s);
    if (done(s)) return seen;
    if (Date.now() > end) throw new Error(`semantic state still ${JSON.stringify(s)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function searchAs(
  who: ApiClient,
  search_param: string,
  filters: Record<string, unknown> = {},
): Promise<ClipItem[]> {
  const res = await who.post<ClipItem[]>('/search', { search_param, top_k: 10, ...filters });
  expect(res.status).toBe(200);
  return res.json.data!;
}

const files = tinyClipFiles();

describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  let hub: ModelHub;
  let service: TestService;
  let api: ApiClient;
  let cleanup: () => Promise<void>;
  const videos = { red: '', blue: '' };

  beforeAll(async () => {
    hub = await startModelHub(REPO, files);
  });
  const testService = useService(() => ({ backend, config: semanticConfig(hub.url) }));
  beforeAll(async () => {
    const temp = await tempDir('reelsync-semantic-');
    cleanup = temp.cleanup;
    service = testService();
    api = apiClient(service.baseUrl, service.key);
    // Indexed before the model exists: their keyframes are embedded later (the backfill).
    // The colour descriptors call these clips "red" and "blue" by keywords; "tomato" is a word only the model links to
    // a red picture, so hits for it prove the model ran.
    for (const [i, colour] of (['red', 'blue'] as const).entries()) {
      const up = await api.upload<UploadedVideo>(await flatClip(join(temp.dir, `shot-${i}.mp4`), colour));
      videos[colour] = up.json.data!.videoNo;
    }
    for (const no of Object.values(videos)) expect((await waitForStatus(api, no, 180_000)).status).toBe('PARSE');
  }, 300_000);

  afterAll(async () => {
    await hub?.close();
    await cleanup?.();
  });

  const search = (search_param: string, who: ApiClient = api, filters: Record<string, unknown> = {}) =>
    searchAs(who, search_param, filters);

  describe('semantic model slot, end to end on a generated CLIP-shaped model', () => {
    it('is off until the model is downloaded, and search ranks by keywords alone', async () => {
      expect(await stateOf(api)).toMatchObject({ state: 'off', model: REPO, reason: 'model not downloaded' });
      expect(await search('tomato')).toEqual([]);
      // Keywords still work: the colour descriptor names the red clip.
      expect((await search('red')).map((h) => h.videoNo)).toEqual([videos.red]);
      // What the model would cost comes from the host's answers to HEAD requests: nothing is downloaded.
      const total = [...files.values()].reduce((n, d) => n + d.length, 0);
      await expect
        .poll(async () => (await stateOf(api)).state === 'off' && (await stateOf(api)))
        .toMatchObject({
          expectedBytes: total,
        });
      expect(hub.requests.filter((r) => r.method !== 'HEAD')).toEqual([]);
    });

    it('downloads with progress, resumes a cut transfer with a Range request, and checks every file', async () => {
      hub.faults = { cutOnce: { file: VISION, afterBytes: 100 }, slow: { chunk: 256, delayMs: 15 } };
      const started = await api.post<SemanticState>('/semantic/download', {});
      expect(started.json.data?.state).toBe('downloading');
      const seen = await waitForState(api, (s) => s.state !== 'downloading');
      hub.faults = {};
      const last = seen[seen.length - 1]!;
      expect(last.state, JSON.stringify(last)).toBe('ready');
      const progress = seen.flatMap((s) => (s.state === 'downloading' && s.percent !== null ? [s.percent] : []));
      expect(progress.length).toBeGreaterThan(2);
      expect(progress.some((p) => p > 0 && p < 100)).toBe(true);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      // The cut transfer went on from byte 100, not from the start.
      const cdnGets = hub.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/cdn/'));
      expect(cdnGets.some((r) => r.range === 'bytes=100-')).toBe(true);
      for (const [name, data] of files) {
        const cached = await readFile(join(service.dataDir, 'models', ...REPO.split('/'), ...name.split('/')));
        expect(Buffer.compare(cached, Buffer.from(data)), name).toBe(0);
      }
      expect(last.state === 'ready' && last.sizeBytes).toBe([...files.values()].reduce((n, d) => n + d.length, 0));
    });

    it('embeds the keyframes indexed before the model came, and ranks the red clip first for "red"', async () => {
      await waitForState(api, (s) => s.state === 'ready' && s.pendingSegments === 0 && s.embeddedSegments >= 2);
      const red = await search('red');
      expect(red[0]?.videoNo).toBe(videos.red);
      expect(red[0]?.matched).toContain('looks like: red');
      expect(red.some((h) => h.videoNo === videos.blue)).toBe(false);
      const tomato = await search('tomato');
      expect(tomato[0]?.videoNo).toBe(videos.red);
      expect(tomato[0]?.matched).toContain('looks like: tomato');
      expect(tomato.some((h) => h.videoNo === videos.blue)).toBe(false);
      const sky = await search('blue sky');
      expect(sky[0]?.videoNo).toBe(videos.blue);
      // The search's filters apply to the semantic side too.
      expect(await search('red', api, { video_nos: [videos.blue] })).toEqual([]);
      expect((await search('red', api, { video_nos: [videos.red] })).map((h) => h.videoNo)).toEqual([videos.red]);
      // Another account sees none of these keyframes.
      const other = apiClient(service.baseUrl, service.createKey('other', { credits: 10 }));
      expect(await search('red', other)).toEqual([]);
    });

    it('embeds a clip indexed once the model is ready, and keeps the model across a restart', async () => {
      const temp = await tempDir('reelsync-semantic-green-');
      try {
        const up = await api.upload<UploadedVideo>(await flatClip(join(temp.dir, 'shot-2.mp4'), 'lime'));
        const green = up.json.data!.videoNo;
        expect((await waitForStatus(api, green, 180_000)).status).toBe('PARSE');
        await waitForState(api, (s) => s.state === 'ready' && s.pendingSegments === 0 && s.embeddedSegments >= 3);
        expect((await search('green grass'))[0]?.videoNo).toBe(green);
      } finally {
        await temp.cleanup();
      }
      const requests = hub.requests.length;
      await service.restart();
      expect((await stateOf(api)).state).toBe('ready');
      expect((await search('tomato'))[0]?.videoNo).toBe(videos.red);
      // Loading reads the cache only.
      expect(hub.requests.length).toBe(requests);
    });
  });
});

// The model's files live in each process's data folder whatever the backends. On 'team' the download asked for is
// also in the shared database, which the service reads at start and looks at every pollMs: a failed download must
// stay failed (not be tried again at every look), and a killed one must go on from its part files.
/** Long enough for the holder's renewals (a third of it apart) on a loaded machine. */
const LEASE_MS = 4000;
const POLL_MS = 100;
describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  describe('a model whose checksum does not match', () => {
    it('is refused and deleted', async () => {
      const lying = await startModelHub(REPO, files);
      lying.faults = { wrongChecksum: TEXT };
      const other = await startService({ backend, config: semanticConfig(lying.url, POLL_MS) });
      try {
        const client = apiClient(other.baseUrl, other.key);
        await client.post('/semantic/download', {});
        const seen = await waitForState(client, (s) => s.state === 'failed');
        const failed = seen[seen.length - 1]!;
        expect(failed.state === 'failed' && failed.reason).toMatch(/does not match the checksum/);
        const asked = lying.requests.length;
        await new Promise((r) => setTimeout(r, 5 * POLL_MS));
        expect((await stateOf(client)).state).toBe('failed');
        expect(lying.requests.length).toBe(asked);
        const dir = join(other.dataDir, 'models', ...REPO.split('/'), 'onnx');
        expect(await stat(join(dir, 'text_model_quantized.onnx')).catch(() => null)).toBeNull();
        expect(await stat(join(dir, 'text_model_quantized.onnx.part')).catch(() => null)).toBeNull();
        expect(await searchAs(client, 'red')).toEqual([]);
      } finally {
        await other.stop();
        await lying.close();
      }
    });
  });

  describe('a download the service was killed in', () => {
    it('goes on from its part files when the service starts again', async () => {
      const stallingHub = await startModelHub(REPO, files);
      stallingHub.faults = { stall: { file: VISION, afterBytes: 100 } };
      // On a team the killed process's fetch lease holds the restarted one back until it lapses: a short one here.
      const config = semanticConfig(stallingHub.url, POLL_MS);
      const other = await startService({
        backend,
        config: { semantic: { ...config.semantic, fetchLeaseMs: LEASE_MS } },
      });
      try {
        const client = apiClient(other.baseUrl, other.key);
        await client.post('/semantic/download', {});
        // Killed while the vision model (the last file) has 100 bytes on disk and waits for more.
        const total = [...files.values()].reduce((n, d) => n + d.length, 0);
        const stalled = total - files.get(VISION)!.length + 100;
        await waitForState(client, (s) => s.state === 'downloading' && s.receivedBytes === stalled, 120_000);
        await new Promise((r) => setTimeout(r, 200));
        await other.kill();
        const before = stallingHub.requests.length;
        stallingHub.faults = {};
        await other.restart();
        const seen = await waitForState(client, (s) => s.state === 'ready');
        expect(seen[seen.length - 1]?.state).toBe('ready');
        const after = stallingHub.requests.slice(before).filter((r) => r.method === 'GET');
        // Files done before the kill are not fetched again; the cut one resumes from its part file (its resolve
        // address, then the CDN it redirects to, both asked for the rest only).
        // (Every file is fetched at the commit the host resolved the first one at: the resolve address names it.)
        expect(after.map((r) => r.path.replace(/^\/cdn\/.*/, '/cdn'))).toEqual([
          `/${REPO}/resolve/${stallingHub.commit}/${VISION}`,
          '/cdn',
        ]);
        const [resolveRange, cdnRange] = after.map((r) => r.range);
        expect(resolveRange).toBe('bytes=100-');
        expect(cdnRange).toBe(resolveRange);
      } finally {
        await other.stop();
        await stallingHub.close();
      }
    }, 180_000);
  });
});
