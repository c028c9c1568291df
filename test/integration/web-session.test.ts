import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp';
import { alive } from '../helpers/utility-process';

const WEB = join(import.meta.dirname, '../../out/main/web.js');

/** The built web mode (plain Node, no TypeScript loader) on a data folder; resolves with the address it prints. */
async function startWeb(dataDir: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [WEB, '--data', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, REELSYNC_LOG: 'warn' },
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Open: (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(new URL(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`web mode exited with ${code}: ${stderr}`)));
  });
  return { child, url };
}

async function rpc(
  url: URL,
  channel: string,
): Promise<{ status: number; body: { ok: boolean; value?: Record<string, unknown> } }> {
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const res = await fetch(new URL(`/api/rpc/${channel}`, url.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-reelsync-token': token },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; value?: Record<string, unknown> } };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await exited;
}

describe('web mode address across restarts of the app (built out/main/web.js)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir('reelsync-web-session-')));
  afterAll(async () => cleanup());

  it('keeps port and token for the same data folder, so an open tab reconnects; quitting stops the embedded service', async () => {
    const dataDir = join(dir, 'data');
    const first = await startWeb(dataDir);
    const state = await rpc(first.url, 'service:status');
    expect(state.body.value).toMatchObject({ state: 'running' });
    const servicePid = Number(state.body.value?.pid);
    await stop(first.child);
    expect(alive(servicePid)).toBe(false);
    expect(statSync(join(dataDir, 'web-session.json')).mode & 0o777).toBe(0o600);

    const second = await startWeb(dataDir);
    expect(second.url.href).toBe(first.url.href);
    // The tab opened on the first run: same origin, same token.
    expect((await rpc(first.url, 'app:info')).status).toBe(200);
    await stop(second.child);

    // Another program took the port: a new port, the same token.
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(Number(first.url.port), '127.0.0.1', () => r()));
    try {
      const third = await startWeb(dataDir);
      expect(third.url.port).not.toBe(first.url.port);
      expect(third.url.hash).toBe(first.url.hash);
      await stop(third.child);
    } finally {
      await new Promise<void>((r) => squatter.close(() => r()));
    }

    // Another data folder: another token.
    const other = await startWeb(join(dir, 'other'));
    expect(other.url.hash).not.toBe(first.url.hash);
    await stop(other.child);
  }, 120_000);
});
