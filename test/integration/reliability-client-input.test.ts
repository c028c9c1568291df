import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, chmod, chown, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/store/database';
import { copyFixture } from '../fixtures/media';
import { startService, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { startEngine, type TestEngine } from '../helpers/sync-engine';
import { tempDir } from '../helpers/temp';

const CLI = join(import.meta.dirname, '../../src/main/cli.ts');
let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;
const testService = useService({ credits: 100, config: { indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
  ({ dir, cleanup } = await tempDir('reelsync-badinput-'));
  await chmod(dir, 0o755);
}, 60_000);
afterAll(async () => {
  await cleanup?.();
});

const sha256 = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
/** The indexer is paused: "indexing" is as far as an uploaded file gets. */
const SETTLED = new Set(['indexing', 'indexed', 'skipped', 'failed', 'deleted', 'index_failed']);

async function settle(
  t: TestEngine,
  count: number,
  timeoutMs = 60_000,
): Promise<Map<string, { status: string; reason: string | null; videoNo: string | null }>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { files } = t.engine.files(1, 100);
    if ((files.length >= count && files.every((f) => SETTLED.has(f.status))) || Date.now() > end) {
      return new Map(files.map((f) => [f.path, { status: f.status, reason: f.reason, videoNo: f.videoNo }]));
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function videosTagged(hash: string, on: TestService = service): Promise<number> {
  const t = await startEngine(join(dir, 'probe'), on.baseUrl, on.key);
  try {
    return (await t.client.listVideos({ tag: `sha256:${hash}`, page: 1, size: 5 })).total_count;
  } finally {
    await t.stop();
  }
}

describe('awkward files on the client', () => {
  it('uploads unicode, spaced and very long paths, each with its own status', async () => {
    const folder = join(dir, 'names');
    const deep = join(folder, ...Array.from({ length: 12 }, (_, i) => `dossier ${i} — ${'ü'.repeat(60)}`));
    await mkdir(deep, { recursive: true });
    const files = [
      await copyFixture('phoneH264Mp4', folder, 'Été à Zürich — 日本語 🎬.mp4'),
      await copyFixture('hevcMov', folder, '  two  spaces  .mov'),
      await copyFixture('vp9Mkv', deep, `${'ň'.repeat(100)}.mkv`),
    ];
    expect(Buffer.byteLength(files[2] ?? '')).toBeGreaterThan(1500);
    const t = await startEngine(join(dir, 'client-names'), service.baseUrl, service.key);
    try {
      await t.engine.addFolder({ path: folder });
      await t.engine.scan();
      const statuses = await settle(t, 3);
      for (const f of files) expect(statuses.get(f), f).toMatchObject({ status: 'indexing' });
      for (const f of files) expect(await videosTagged(await sha256(f))).toBe(1);
    } finally {
      await t.stop();
    }
  }, 90_000);

  it('a file rewritten in place while it uploads is never stored under its old hash; its new content is uploaded', async () => {
    const folder = join(dir, 'changing');
    await mkdir(folder, { recursive: true });
    const file = await copyFixture('phoneH264Mp4', folder, 'rewritten.mp4');
    await appendFile(file, randomBytes(60 * 1024 * 1024));
    const before = await sha256(file);
    const vanishing = await copyFixture('hevcMov', folder, 'vanishing.mov');
    await appendFile(vanishing, randomBytes(60 * 1024 * 1024));
    const t = await startEngine(join(dir, 'client-changing'), service.baseUrl, service.key, { uploadConcurrency: 1 });
    try {
      let rewritten = false;
      let removed = false;
      t.events.on('sync:file-changed', (f) => {
        // Same size, different bytes near the end, as the first chunks are on their way.
        if (f.path === file && f.status === 'uploading' && !rewritten) {
          rewritten = true;
          spawnSync('dd', ['if=/dev/urandom', `of=${file}`, 'bs=1M', 'count=1', 'seek=50', 'conv=notrunc'], {
            stdio: 'ignore',
          });
        }
        if (f.path === vanishing && f.status === 'uploading' && !removed) {
          removed = true;
          void unlink(vanishing);
        }
      });
      await t.engine.addFolder({ path: folder });
      await t.engine.scan();
      await settle(t, 2);
      expect(rewritten && removed).toBe(true);
      // The old content never reached the library; the rewritten file is picked up again by the watcher (or a rescan).
      expect(await videosTagged(before)).toBe(0);
      await t.engine.scan();
      const statuses = await settle(t, 1);
      expect(statuses.get(file)?.status).toBe('indexing');
      expect(await videosTagged(await sha256(file))).toBe(1);
      // The file removed mid-upload: the open file was still read whole on Linux, or the upload failed; either way a clear status.
      const gone = statuses.get(vanishing);
      expect(gone === undefined || SETTLED.has(gone.status), JSON.stringify(gone)).toBe(true);
    } finally {
      await t.stop();
    }
  }, 120_000);

  it('an unreadable file gets a clear per-file reason while its neighbours upload (the CLI as an unprivileged user)', async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // needs root to run the CLI as "nobody"; as root itself permissions never deny
    // `sync --once` waits for indexing, so this one needs a service whose indexer runs.
    const indexing = await startService({ credits: 100 });
    try {
      await unreadable(indexing);
    } finally {
      await indexing.stop();
    }
  }, 120_000);
});

async function unreadable(service: TestService): Promise<void> {
  {
    const folder = join(dir, 'perms');
    await mkdir(folder, { recursive: true });
    const readable = await copyFixture('vp9Mkv', folder, 'readable.mkv');
    await appendFile(readable, randomBytes(1024));
    const locked = await copyFixture('hevcMov', folder, 'locked.mov');
    await appendFile(locked, randomBytes(1024));
    await chmod(locked, 0o000);
    const state = join(dir, 'perms-client');
    await mkdir(state, { recursive: true });
    await chown(state, 65534, 65534);
    await writeFile(join(state, '.keep'), '');
    const res = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        '--server',
        service.baseUrl,
        '--key',
        service.key,
        '--db',
        join(state, 'c.db'),
        'sync',
        folder,
        '--once',
        '--stable-ms',
        '0',
      ],
      {
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, HOME: state },
      },
    );
    const out = `${res.stdout}${res.stderr}`;
    expect(res.status, out).not.toBeNull();
    expect(out).not.toMatch(/Unhandled|TypeError|at .*\.ts:\d+/);
    expect(await videosTagged(await sha256(readable), service)).toBe(1);
    const db = openDatabase(join(state, 'c.db'));
    const rows = db.prepare('SELECT path, state, reason FROM files').all() as {
      path: string;
      state: string;
      reason: string | null;
    }[];
    db.close();
    const row = rows.find((r) => r.path === locked);
    expect(row, JSON.stringify(rows)).toMatchObject({ state: 'skipped' });
    const text = row?.reason ?? '';
    expect(text).toMatch(/EACCES|permission denied/i);
  }
}
