import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { partPathOf } from '../../src/main/library/download-job';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { startCuttingProxy, type CuttingProxy } from '../helpers/cutting-proxy';
import { fixturePath } from '../fixtures/media';
import { makeCounterVideo } from '../helpers/frame-counter';
import { startLibrary } from '../helpers/library';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

const sha256 = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

let service: TestService;
let api: ApiClient;
let proxy: CuttingProxy;
let dir: string;
let cleanup: () => Promise<void>;
let original: string;
let video: { videoNo: string; bucket: string; blob: string; size: number };
let viaProxy: { baseUrl: string; key: string };
let second: string;

const testService = useService();
beforeAll(async () => {
  service = testService();
  api = apiClient(service.baseUrl, service.key);
  ({ dir, cleanup } = await tempDir('reelsync-downloads-'));
  original = await makeCounterVideo(dir, 'counter.mp4');
  const up = await api.upload<{ videoNo: string }>(original);
  const videoNo = up.json.data?.videoNo ?? '';
  // A second indexed video, for more keyframes in the thumbnail cache test.
  second = (await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'))).json.data?.videoNo ?? '';
  const meta = (await waitForStatus(api, videoNo, 90_000)) as {
    status: string;
    video_bucket: string;
    video_blob: string;
    size: number;
  };
  expect(meta.status).toBe('PARSE');
  expect((await waitForStatus(api, second, 90_000)).status).toBe('PARSE');
  video = { videoNo, bucket: meta.video_bucket, blob: meta.video_blob, size: meta.size };
  proxy = await startCuttingProxy(service.origin);
  viaProxy = { baseUrl: `${proxy.origin}${API_BASE_PATH}`, key: service.key };
});

afterAll(async () => {
  await proxy?.close();
  await cleanup?.();
});

const downloadsOf = (blob: string) =>
  proxy.requests.filter(
    (r) => r.path.includes('/download') && r.path.includes(encodeURIComponent(blob.split('/').pop() ?? '')),
  );

describe('downloads', () => {
  test('the cost is quoted from get_metadata before starting (0.12 USD/GB)', async () => {
    const lib = await startLibrary(join(dir, 'quote'), viaProxy);
    try {
      const quote = await lib.feature.downloads.quote(video.bucket, video.blob);
      expect(quote.bytes).toBe(video.size);
      expect(quote.usd).toBe(Math.ceil((video.size * 120_000) / 1e9) / 1e6);
    } finally {
      await lib.stop();
    }
  });

  test('a connection dropped mid-stream resumes with a Range and ends byte-identical', async () => {
    const lib = await startLibrary(join(dir, 'resume'), viaProxy);
    try {
      proxy.requests.length = 0;
      proxy.cutAfter.push(40_000, 70_000);
      const row = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob: video.blob,
        destDir: join(dir, 'resume-out'),
      });
      const done = await lib.feature.downloads.settled(row.id);
      expect(done.error).toBeNull();
      expect(done.state).toBe('done');
      expect(await sha256(done.path ?? '')).toBe(await sha256(original));
      const ranges = downloadsOf(video.blob).map((r) => [r.range, r.status, r.cut]);
      expect(ranges[0]).toEqual(['bytes=0-', 206, true]);
      expect(ranges[1]?.[0]).toMatch(/^bytes=\d+-$/);
      expect(Number(/\d+/.exec(String(ranges[1]?.[0]))?.[0])).toBeGreaterThan(0);
      expect(ranges).toHaveLength(3);
      expect(done.resumes).toBe(2);
      expect(done.restarts).toBe(0);
      expect(basename(done.path ?? '')).toBe('counter.mp4');
      expect((await readdir(dirname(done.path ?? ''))).filter((f) => f.endsWith('.part'))).toEqual([]);
    } finally {
      await lib.stop();
    }
  });

  test('after a restart of the app the partial download resumes from its part file', async () => {
    const sub = join(dir, 'restart');
    const first = await startLibrary(sub, viaProxy);
    proxy.requests.length = 0;
    proxy.stallAfter.push(50_000);
    const row = await first.feature.downloads.start({
      kind: 'video',
      bucket: video.bucket,
      blob: video.blob,
      destDir: join(sub, 'out'),
    });
    const progressed = new Promise<void>((resolve) => {
      const off = first.events.on('downloads:progress', (p) => {
        if (p.id === row.id && p.bytes >= 50_000) {
          off();
          resolve();
        }
      });
    });
    await progressed;
    await first.stop(); // quits mid-stream: the job goes back to queued, the part file stays
    const partSize = (await readFile(partPathOf(row))).length;
    expect(partSize).toBe(50_000);
    const second = await startLibrary(sub, viaProxy);
    try {
      const done = await second.feature.downloads.settled(row.id);
      expect(done.state).toBe('done');
      expect(await sha256(done.path ?? '')).toBe(await sha256(original));
      expect(downloadsOf(video.blob).map((r) => r.range)).toEqual(['bytes=0-', `bytes=${partSize}-`]);
    } finally {
      await second.stop();
    }
  });

  test('a symlink planted at a predictable part name is never written through: the part name is random', async () => {
    const sub = join(dir, 'planted');
    const out = join(sub, 'out');
    await mkdir(out, { recursive: true });
    const victim = join(sub, 'victim.txt');
    await writeFile(victim, 'keep me');
    // The names parts had before: .reelsync-download-<id>.part, for the first ids a fresh database hands out.
    for (let id = 1; id <= 5; id++) await symlink(victim, join(out, `.reelsync-download-${id}.part`));
    const lib = await startLibrary(sub, viaProxy);
    try {
      const row = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob: video.blob,
        destDir: out,
      });
      expect(row.part_name).toMatch(/^\.reelsync-[0-9a-f]{32}\.part$/);
      const done = await lib.feature.downloads.settled(row.id);
      expect(done.state).toBe('done');
      expect(await sha256(done.path ?? '')).toBe(await sha256(original));
      expect(await readFile(victim, 'utf8')).toBe('keep me');
    } finally {
      await lib.stop();
    }
  });

  test('a part file swapped for a symlink between two runs is refused on resume, its target untouched', async () => {
    const sub = join(dir, 'swapped');
    const victim = join(sub, 'victim.txt');
    const first = await startLibrary(sub, viaProxy);
    proxy.stallAfter.push(50_000);
    const row = await first.feature.downloads.start({
      kind: 'video',
      bucket: video.bucket,
      blob: video.blob,
      destDir: join(sub, 'out'),
    });
    await new Promise<void>((resolve) => {
      const off = first.events.on('downloads:progress', (p) => {
        if (p.id === row.id && p.bytes >= 50_000) {
          off();
          resolve();
        }
      });
    });
    await first.stop();
    const part = partPathOf(row);
    expect((await lstat(part)).mode & 0o777).toBe(0o600);
    await writeFile(victim, 'keep me');
    await rm(part);
    await symlink(victim, part);
    const second = await startLibrary(sub, viaProxy);
    try {
      const done = await second.feature.downloads.settled(row.id);
      expect(done.state).toBe('failed');
      expect(done.error).toMatch(/not a regular file/);
      expect(await readFile(victim, 'utf8')).toBe('keep me');
    } finally {
      await second.stop();
    }
  });

  test('a server that ignores the Range gets a clean restart, still byte-identical', async () => {
    const lib = await startLibrary(join(dir, 'norange'), viaProxy);
    try {
      proxy.requests.length = 0;
      proxy.cutAfter.push(30_000);
      proxy.dropRange = 0;
      const resumed = new Promise<void>((resolve) => {
        const off = lib.events.on('downloads:progress', (p) => {
          if (p.state === 'queued' && p.bytes > 0) {
            off();
            proxy.dropRange = 1;
            resolve();
          }
        });
      });
      const row = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob: video.blob,
        destDir: join(dir, 'norange-out'),
      });
      await resumed;
      const done = await lib.feature.downloads.settled(row.id);
      expect(done.state).toBe('done');
      expect(done.restarts).toBe(1);
      expect(await sha256(done.path ?? '')).toBe(await sha256(original));
      expect(downloadsOf(video.blob).map((r) => [r.status, r.cut])).toEqual([
        [206, true],
        [200, false],
        [206, false],
      ]);
    } finally {
      proxy.dropRange = 0;
      await lib.stop();
    }
  });

  test('"Resource does not exist" marks the download gone, with no retries', async () => {
    const lib = await startLibrary(join(dir, 'gone'), viaProxy);
    try {
      proxy.requests.length = 0;
      const blob = `videos/${video.videoNo}/not-there.mp4`;
      const row = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob,
        destDir: join(dir, 'gone-out'),
      });
      const done = await lib.feature.downloads.settled(row.id);
      expect(done.state).toBe('gone');
      expect(done.error).toBe('Resource does not exist');
      await new Promise((r) => setTimeout(r, 600)); // several queue ticks and backoff periods
      expect(proxy.requests.filter((r) => r.path.includes('not-there'))).toHaveLength(1);
      const job = lib.db
        .prepare(`SELECT state, attempts FROM jobs WHERE kind = 'download' AND target = ?`)
        .get(String(row.id));
      expect(job).toEqual({ state: 'failed', attempts: 1 });
    } finally {
      await lib.stop();
    }
  });

  test('a JSON envelope instead of a stream is told apart by Content-Type: insufficient balance pauses the queue until recharged', async () => {
    const lib = await startLibrary(join(dir, 'balance'), viaProxy, { blockedRecheckMs: 200 });
    try {
      service.setCredits('test', 0);
      const row = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob: video.blob,
        destDir: join(dir, 'balance-out'),
      });
      const blocked = await lib.feature.settledOrBlocked(lib.feature.downloads.settled(row.id));
      expect(blocked).toEqual({ blocked: 'insufficient-balance' });
      const waiting = lib.feature.downloads.get(row.id);
      expect(waiting?.state).toBe('queued');
      expect(waiting?.error).toContain('Insufficient balance to download the resource');
      service.setCredits('test', 100);
      expect((await lib.feature.downloads.settled(row.id)).state).toBe('done');
      proxy.override = {
        status: 200,
        contentType: 'application/json;charset=utf-8',
        body: JSON.stringify({
          code: '0001',
          msg: 'Resource does not exist',
          data: null,
          success: false,
          failed: true,
        }),
      };
      const other = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob: video.blob,
        destDir: join(dir, 'json200-out'),
      });
      const gone = await lib.feature.downloads.settled(other.id);
      expect(gone.state).toBe('gone');
      expect(await readdir(join(dir, 'json200-out'))).toEqual([]);
    } finally {
      proxy.override = null;
      service.setCredits('test', 100);
      await lib.stop();
    }
  });

  test('hostile server-supplied names cannot leave the download folder, reserved names are renamed, nothing is overwritten', async () => {
    const root = join(dir, 'hostile');
    const out = join(root, 'a', 'b', 'out');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, '_CON.mp4'), 'mine');
    const lib = await startLibrary(root, viaProxy);
    const names = [
      `attachment; filename="../../escape.mp4"; filename*=UTF-8''..%2F..%2F..%2Fescape.mp4`,
      `attachment; filename="/etc/cron.d/evil"`,
      `attachment; filename*=UTF-8''..`,
      `attachment; filename="CON.mp4"`,
      `attachment; filename="..\\\\..\\\\win.mp4"`,
    ];
    try {
      const paths: string[] = [];
      const ids: number[] = [];
      for (const disposition of names) {
        proxy.rewriteHeaders = (h) => ({ ...h, 'content-disposition': disposition });
        const row = await lib.feature.downloads.start({
          kind: 'video',
          bucket: video.bucket,
          blob: video.blob,
          destDir: join(out, String(paths.length)),
        });
        const done = await lib.feature.downloads.settled(row.id);
        expect(done.state).toBe('done');
        paths.push(done.path ?? '');
        ids.push(done.id);
      }
      // The same name twice in one folder: numbered, not overwritten.
      proxy.rewriteHeaders = (h) => ({ ...h, 'content-disposition': 'attachment; filename="CON.mp4"' });
      const again = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob: `${video.blob}`,
        destDir: out,
      });
      const placed = await lib.feature.downloads.settled(again.id);
      expect(paths.map((p) => [basename(dirname(p)), basename(p)])).toEqual([
        ['0', 'escape.mp4'],
        ['1', 'evil'],
        ['2', `video-${ids[2] ?? 0}`],
        ['3', '_CON.mp4'],
        ['4', 'win.mp4'],
      ]);
      expect(basename(placed.path ?? '')).toBe('_CON (1).mp4');
      expect(await readFile(join(out, '_CON.mp4'), 'utf8')).toBe('mine');
      for (const p of paths) expect(p.startsWith(`${out}/`)).toBe(true);
      expect((await readdir(root)).filter((f) => !f.startsWith('client.db') && f !== 'data')).toEqual(['a']);
      // The library's own folders (made at start, 0700) received nothing.
      expect(
        (await readdir(join(root, 'data'), { recursive: true, withFileTypes: true })).filter((e) => !e.isDirectory()),
      ).toEqual([]);
      expect(await readdir(join(root, 'a'))).toEqual(['b']);
      expect(await readdir(join(root, 'a', 'b'))).toEqual(['out']);
      // A traversal in the blob itself is refused by the service and writes nothing.
      proxy.rewriteHeaders = null;
      const traversal = await lib.feature.downloads.start({
        kind: 'video',
        bucket: video.bucket,
        blob: `videos/${video.videoNo}/../../../../etc/passwd`,
        destDir: join(out, 'trav'),
      });
      expect((await lib.feature.downloads.settled(traversal.id)).state).toBe('gone');
      expect(await readdir(join(out, 'trav'))).toEqual([]);
    } finally {
      proxy.rewriteHeaders = null;
      await lib.stop();
    }
  });

  test('keyframe thumbnail cache on disk: hits without the network, LRU eviction under the size cap', async () => {
    const keyframes: string[] = [];
    for (const no of [video.videoNo, second]) {
      for (let i = 0; i < 4; i++) {
        const res = await api.raw('GET', `/download?bucket=${video.bucket}&blob=keyframes/${no}/${i}.jpg`);
        if (res.status === 200) keyframes.push(`keyframes/${no}/${i}.jpg`);
      }
      const meta = (await api.get<{ poster_blob: string | null }>(`/get_metadata?video_no=${no}`)).json.data;
      if (meta?.poster_blob) keyframes.push(meta.poster_blob);
    }
    expect(keyframes.length).toBeGreaterThanOrEqual(3);
    const answers = await Promise.all(
      keyframes.map(async (k) => api.raw('GET', `/download?bucket=${video.bucket}&blob=${k}`)),
    );
    expect(answers.map((a) => [a.status, String(a.headers['content-type'])])).toEqual(
      keyframes.map(() => [200, 'image/jpeg']),
    );
    const sizes = answers.map((a) => a.body.length);
    const [k0, k1, k2] = keyframes as [string, string, string];
    const [s0, s1, s2] = sizes as [number, number, number];
    // One byte short of all three: the third evicts exactly one entry, the least recently used.
    const cap = s0 + s1 + s2 - 1;
    const lib = await startLibrary(join(dir, 'thumbs'), viaProxy, { thumbnailCacheBytes: cap });
    try {
      const cache = lib.feature.thumbnails;
      proxy.requests.length = 0;
      expect((await cache.get(video.bucket, k0)).ok).toBe(true);
      expect((await cache.get(video.bucket, k1)).ok).toBe(true);
      const hit = await cache.get(video.bucket, k0); // k0 becomes the most recently used
      expect(hit.ok && hit.cached).toBe(true);
      expect(proxy.requests).toHaveLength(2);
      expect((await cache.get(video.bucket, k2)).ok).toBe(true); // over the cap: k1 (least recently used) goes
      expect(cache.size()).toBe(s0 + s2);
      expect((await cache.get(video.bucket, k0, { cacheOnly: true })).ok).toBe(true);
      expect((await cache.get(video.bucket, k2, { cacheOnly: true })).ok).toBe(true);
      expect((await cache.get(video.bucket, k1, { cacheOnly: true })).ok).toBe(false);
      expect((await readdir(lib.feature.folders.thumbnails)).filter((f) => f.endsWith('.jpg'))).toHaveLength(2);
    } finally {
      await lib.stop();
    }
  });
});
