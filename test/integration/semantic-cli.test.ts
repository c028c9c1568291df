import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelHub, type ModelHub } from '../helpers/model-hub';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';
import { tinyClipFiles } from '../helpers/tiny-clip/tiny-clip';

const CLI = join(import.meta.dirname, '../../bin/reelsync.js');
const REPO = 'tests/tiny-clip';

let hub: ModelHub;
let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-semantic-cli-'));
  hub = await startModelHub(REPO, tinyClipFiles());
}, 120_000);
const testService = useService(() => ({ config: { semantic: { host: hub.url, model: REPO } } }));
beforeAll(() => {
  service = testService();
});

afterAll(async () => {
  await hub?.close();
  await cleanup?.();
});

function reelsync(...args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    [CLI, '--db', join(dir, 'client.db'), '--server', service.baseUrl, '--key', service.key, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

describe('reelsync semantic (command line)', () => {
  it('says semantic search is off, then downloads the model with a progress bar until it is on', async () => {
    const before = await reelsync('semantic', 'status');
    expect(before).toEqual({ code: 0, out: 'semantic search: off (model not downloaded)\n' });
    hub.faults = { slow: { chunk: 256, delayMs: 20 } }; // about two seconds
    const download = await reelsync('semantic', 'download');
    expect(download.code, download.out).toBe(0);
    expect(download.out).toMatch(/model \|[█░]+\| \d+% /);
    expect(download.out).toMatch(/100%/);
    expect(download.out).toMatch(/semantic search: on \(tests\/tiny-clip\), .*; 0 keyframes embedded, 0 to go\n$/);
    expect((await reelsync('semantic', 'status')).out).toMatch(/^semantic search: on/);
  });
});
