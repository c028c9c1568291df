import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LibraryClient } from '../../src/main/api/client';
import { createLogger } from '../../src/main/log';
import { openDatabase } from '../../src/main/store/database';
import { SyncStore } from '../../src/main/store/sync-store';
import { copyFixture } from '../fixtures/media';
import { syncSuite } from '../helpers/sync-engine';

const CLI = join(import.meta.dirname, '../../src/main/cli.ts');
const suite = syncSuite('reelsync-crash-');

/** `reelsync sync --once` in its own process; SIGKILLed after `killAfterMs` unless it ends first. */
function runOnce(
  folder: string,
  db: string,
  killAfterMs: number | null,
): Promise<{ code: number | null; killed: boolean; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        '--server',
        suite.service.baseUrl,
        '--key',
        suite.service.key,
        '--db',
        db,
        'sync',
        folder,
        '--once',
        '--stable-ms',
        '0',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    let killed = false;
    const timer =
      killAfterMs === null ? undefined : setTimeout(() => ((killed = true), child.kill('SIGKILL')), killAfterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, out });
    });
  });
}

describe('the engine killed during uploads', () => {
  it('loses nothing and duplicates nothing across SIGKILLs and restarts', async () => {
    const folder = join(suite.dir, 'card');
    await mkdir(folder, { recursive: true });
    // Six distinct, valid videos large enough that uploads are in flight when the kill lands.
    for (let i = 0; i < 6; i++) {
      const file = await copyFixture('phoneH264Mp4', folder, `clip-${i}.mp4`);
      await appendFile(file, randomBytes(24 * 1024 * 1024));
    }
    const db = join(suite.dir, 'client', 'reelsync.db');
    const kills = [1500, 2200, 2600, 3000];
    const runs = [];
    for (const ms of kills) runs.push(await runOnce(folder, db, ms));
    expect(runs.filter((r) => r.killed).length).toBeGreaterThan(0);
    const final = await runOnce(folder, db, null);
    expect(final.killed).toBe(false);
    expect(final.out).toContain('failed: 0');

    const client = new LibraryClient({
      baseUrl: suite.service.baseUrl,
      key: suite.service.key,
      logger: createLogger('test'),
    });
    try {
      const listed = await client.listVideos({ page: 1, size: 100 });
      const store = new SyncStore(openDatabase(db));
      const files = store.filesPage(1, 100).rows;
      expect(files).toHaveLength(6);
      // One library video per local file, each carrying that file's hash tag exactly once.
      expect(listed.total_count).toBe(6);
      for (const f of files) {
        expect(f.state).toBe('linked');
        const tagged = listed.videos.filter((v) => v.tags.includes(`sha256:${f.hash ?? ''}`));
        expect(tagged).toHaveLength(1);
        expect(store.content(f.hash ?? '')?.video_no).toBe(tagged[0]?.videoNo);
      }
    } finally {
      await client.close();
    }
  }, 150_000);
});
