import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { copyFixture } from '../test/fixtures/media';
import { apiClient } from '../test/helpers/api';
import { startService, type TestService } from '../test/helpers/service';
import type { Benchmark, BenchResult } from './harness';

const CLIENT_KILLS = Number(process.env.REELSYNC_CLIENT_KILLS ?? 20);
const SERVICE_KILLS_UPLOAD = 4;
const SERVICE_KILLS_INDEX = 4;
const FILES = 8;
const CLI = join(import.meta.dirname, '../src/main/cli.ts');

interface Run {
  code: number | null;
  killed: boolean;
  out: string;
  ms: number;
}

/** `reelsync sync --once` in its own process; SIGKILLed after killAfterMs unless it ends first. */
function syncOnce(
  service: TestService,
  folder: string,
  db: string,
  killAfterMs: number | null,
): { done: Promise<Run> } {
  const t0 = Date.now();
  const child = spawn(
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
      db,
      'sync',
      folder,
      '--once',
      '--stable-ms',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-5000)));
  let killed = false;
  const timer =
    killAfterMs === null ? undefined : setTimeout(() => ((killed = true), child.kill('SIGKILL')), killAfterMs);
  return {
    done: new Promise((resolve) =>
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, killed, out, ms: Date.now() - t0 });
      }),
    ),
  };
}

async function addFiles(folder: string, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const file = await copyFixture('phoneH264Mp4', folder, `clip-${i}.mp4`);
    await appendFile(file, randomBytes(16 * 1024 * 1024));
  }
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').pluck().get() as string) ?? 'no answer';
  } finally {
    db.close();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const bench: Benchmark = {
  name: 'kill',
  description: `${CLIENT_KILLS} SIGKILLs of the sync CLI at random points, then ${SERVICE_KILLS_UPLOAD} of the service during uploads and ${SERVICE_KILLS_INDEX} during indexing; everything completes once, databases intact`,
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'reelsync-kill-bench-'));
    const service = await startService({ credits: 1000 });
    const lines: string[] = [];
    try {
      const folder = join(dir, 'card');
      await mkdir(folder, { recursive: true });
      const db = join(dir, 'client', 'reelsync.db');
      await mkdir(join(dir, 'client'), { recursive: true });
      await addFiles(folder, 0, FILES);

      // 1. The client killed at random points (scan, hashing, upload, polling).
      const killsAt: number[] = [];
      let landed = 0;
      for (let i = 0; i < CLIENT_KILLS; i++) {
        const at = 300 + Math.floor(Math.random() * 4000);
        killsAt.push(at);
        const r = await syncOnce(service, folder, db, at).done;
        if (r.killed) landed++;
      }
      const t1 = Date.now();
      const afterClientKills = await syncOnce(service, folder, db, null).done;
      lines.push(
        `client: ${CLIENT_KILLS} runs killed at ${Math.min(...killsAt)}-${Math.max(...killsAt)} ms (${landed} killed before finishing); final run exit ${afterClientKills.code} in ${((Date.now() - t1) / 1000).toFixed(1)} s`,
      );

      // 2. The service killed while a sync uploads new files, then while it indexes them.
      await addFiles(folder, FILES, FILES);
      const t2 = Date.now();
      const sync = syncOnce(service, folder, db, 10 * 60_000);
      const kills: string[] = [];
      const api = apiClient(service.baseUrl, service.key);
      for (let i = 0; i < SERVICE_KILLS_UPLOAD + SERVICE_KILLS_INDEX; i++) {
        const phase = i < SERVICE_KILLS_UPLOAD ? 'upload' : 'index';
        if (phase === 'index') {
          // Wait until every file is uploaded and some are still indexing.
          for (let w = 0; w < 600; w++) {
            const listed = await api
              .post<{ total_count: number }>('/list_videos', { page: 1, size: 1 })
              .catch(() => null);
            if ((listed?.json.data?.total_count ?? 0) >= 2 * FILES) break;
            await sleep(200);
          }
        }
        await sleep(300 + Math.floor(Math.random() * 1500));
        const unparsed = await api
          .post<{ total_count: number }>('/list_videos', { status: 'UNPARSE', page: 1, size: 1 })
          .catch(() => null);
        await service.kill();
        kills.push(`${phase}(${unparsed?.json.data?.total_count ?? '?'} unindexed)`);
        await sleep(200);
        await service.restart();
      }
      const final = await sync.done;
      lines.push(
        `service: killed ${kills.length} times: ${kills.join(', ')}; the sync finished with exit ${final.code}${final.killed ? ' (timed out!)' : ''} in ${((Date.now() - t2) / 1000).toFixed(1)} s`,
      );

      // 3. Service side, by content hash: every local file exactly once, all indexed; both databases intact.
      const names = await readdir(folder);
      let duplicates = 0;
      let missing = 0;
      let notIndexed = 0;
      for (const name of names) {
        const hash = createHash('sha256')
          .update(await readFile(join(folder, name)))
          .digest('hex');
        const found = await api.post<{ total_count: number; videos: { status: string }[] }>('/list_videos', {
          tag: `sha256:${hash}`,
          page: 1,
          size: 5,
        });
        const n = found.json.data?.total_count ?? 0;
        if (n > 1) duplicates++;
        if (n === 0) missing++;
        if (found.json.data?.videos.some((v) => v.status !== 'PARSE')) notIndexed++;
      }
      const total =
        (await api.post<{ total_count: number }>('/list_videos', { page: 1, size: 1 })).json.data?.total_count ?? -1;
      lines.push(
        `files ${names.length}, library videos ${total}, duplicates ${duplicates}, missing ${missing}, not indexed ${notIndexed}`,
      );
      lines.push(
        `PRAGMA integrity_check: client ${integrity(db)}, service ${integrity(join(service.dataDir, 'service.db'))}`,
      );
      if (
        duplicates ||
        missing ||
        notIndexed ||
        total !== names.length ||
        afterClientKills.code !== 0 ||
        final.code !== 0
      )
        process.exitCode = 1;
      const result: BenchResult = { what: `SIGKILL trials: ${CLIENT_KILLS} client + ${kills.length} service`, lines };
      return [result];
    } finally {
      await service.stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
