import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp';
import { startWebApp, type RunningWebApp } from '../helpers/web-app';

/**
 * The web mode's folder browser lists folder names anywhere the user can read, so it is an attacker's first wish: a
 * page of another site, a caller without the session token, or a path that climbs out with "..", NUL or a relative
 * path. Each is refused with a clear error, and no refused answer carries a folder name or a file's content.
 */
let running: RunningWebApp;
let footage: string;
let cleanup: () => Promise<void>;
const SECRET_DIR = 'private-folder-name';
const SECRET_FILE = 'secret-notes.txt';
const SECRET_TEXT = 'TOP-SECRET-CONTENT';

beforeAll(async () => {
  running = await startWebApp();
  ({ dir: footage, cleanup } = await tempDir('reelsync-browse-attack-'));
  await mkdir(join(footage, SECRET_DIR));
  await writeFile(join(footage, SECRET_FILE), SECRET_TEXT);
});
afterAll(async () => {
  await running.stop();
  await cleanup();
});

async function browse(
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; json: { ok: boolean; error?: { code: string; message: string } } }> {
  const res = await request(`${running.web.origin}/api/rpc/folders:browse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-reelsync-token': running.web.token, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: JSON.parse(text) as never };
}

function leaksNothing(text: string): void {
  expect(text).not.toContain(SECRET_DIR);
  expect(text).not.toContain(SECRET_FILE);
  expect(text).not.toContain(SECRET_TEXT);
}

describe('folders:browse over the web mode (attacks)', () => {
  it('lists the folder for the app’s own page with the token: sub-folder names only, never a file', async () => {
    const own = await browse({ path: footage }, { origin: running.web.origin });
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ ok: true, value: { folders: [SECRET_DIR], more: 0 } });
    expect(own.text).not.toContain(SECRET_FILE);
    expect(own.text).not.toContain(SECRET_TEXT);
  });

  it('refuses a call without the token, with a wrong one, and with the token in the wrong place', async () => {
    for (const token of ['', 'wrong', running.web.token.slice(1), `${running.web.token}x`]) {
      const r = await browse({ path: footage }, { 'x-reelsync-token': token });
      expect(r.status).toBe(401);
      expect(r.json.error).toEqual({ code: 'bad_request', message: 'missing or wrong session token' });
      leaksNothing(r.text);
    }
    const inBody = await browse({ path: footage, token: running.web.token }, { 'x-reelsync-token': '' });
    expect(inBody.status).toBe(401);
    leaksNothing(inBody.text);
  });

  it('refuses a page of another site even when it holds the token', async () => {
    const port = new URL(running.web.origin).port;
    for (const origin of [
      'https://evil.example',
      'null',
      `http://127.0.0.1:${Number(port) + 1}`,
      `http://evil.example:${port}`,
    ]) {
      const r = await browse({ path: footage }, { origin });
      expect(r.status).toBe(403);
      expect(r.json.error).toEqual({ code: 'forbidden', message: 'calls from another site are refused' });
      leaksNothing(r.text);
    }
  });

  it('refuses "..", NUL, relative and non-text paths before touching the disk', async () => {
    const attacks: [unknown, RegExp][] = [
      [`${footage}/../${footage.split('/').pop() ?? ''}`, /without “\.\.”/],
      [`${footage}/..`, /without “\.\.”/],
      ['/..', /without “\.\.”/],
      [`${footage}\0/${SECRET_DIR}`, /cannot contain NUL/],
      [SECRET_DIR, /full path/],
      ['./', /full path/],
      ['~/', /full path/],
      ['', /full path/],
      [['/'], /expected string/],
    ];
    for (const [path, message] of attacks) {
      const r = await browse({ path });
      expect(r.status).toBe(200); // a refused request is answered as data, like every channel's
      expect(r.json.ok).toBe(false);
      expect(r.json.error?.code).toBe('bad_request');
      expect(r.json.error?.message).toMatch(message);
      leaksNothing(r.text);
    }
    const extra = await browse({ path: footage, files: true });
    expect(extra.json).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    leaksNothing(extra.text);
  });

  it('answers a vanished folder in plain words, naming nothing beside it', async () => {
    const r = await browse({ path: join(footage, 'gone') });
    expect(r.json).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(r.json.error?.message).toMatch(/There is no folder .*gone/);
    leaksNothing(r.text);
  });
});
