import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendererBuildDir } from '../../src/main/paths';
import { startWebServer } from '../../src/main/web/server';
import { startWebApp, type RunningWebApp } from '../helpers/web-app';

let running: RunningWebApp;
beforeAll(async () => {
  running = await startWebApp();
});
afterAll(async () => running.stop());

const rpc = (channel: string, body: unknown, token = running.web.token) =>
  request(`${running.web.origin}/api/rpc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-reelsync-token': token },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('headless web mode over HTTP', () => {
  it('serves the built renderer with a strict CSP', async () => {
    const res = await request(`${running.web.origin}/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(await res.body.text()).toContain('<div id="root">');
  });

  it('answers a contract call', async () => {
    const res = await rpc('app:info', {});
    expect(res.statusCode).toBe(200);
    const body = (await res.body.json()) as { ok: boolean; value: { mode: string; dataDir: string } };
    expect(body).toMatchObject({ ok: true, value: { mode: 'web', dataDir: running.dataDir } });
  });

  it('refuses calls without the session token', async () => {
    const res = await rpc('app:info', {}, 'wrong');
    expect(res.statusCode).toBe(401);
    await res.body.dump();
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await request(`${running.web.origin}/api/rpc/app:info`, {
      method: 'POST',
      headers: { host: 'evil.example:80', 'x-reelsync-token': running.web.token },
      body: '{}',
    });
    expect(res.statusCode).toBe(421);
    await res.body.dump();
  });

  it('answers bad input with error data, never a crash', async () => {
    const notJson = await rpc('clips:search', '{not json');
    expect(notJson.statusCode).toBe(400);
    expect(await notJson.body.json()).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const wrongType = await rpc('clips:search', { text: ['x'] });
    expect(await wrongType.body.json()).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const unknown = await rpc('app:nope', {});
    expect(await unknown.body.json()).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    const huge = await rpc('clips:search', JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) })).catch(
      (err: Error) => err,
    );
    // The server answers 413 and closes; the client may see that answer or the reset of its unfinished upload.
    if (huge instanceof Error) expect(huge.message).toMatch(/ECONNRESET|EPIPE|closed|other side/i);
    else {
      expect(huge.statusCode).toBe(413);
      await huge.body.dump();
    }
    expect((await rpc('clips:search', { text: 'still alive' })).statusCode).toBe(200);
  });

  it('streams main events over Server-Sent Events', async () => {
    const res = await request(`${running.web.origin}/api/events?token=${running.web.token}`);
    expect(res.headers['content-type']).toBe('text/event-stream');
    const received = new Promise<string>((resolve) => {
      let text = '';
      res.body.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('event: app:status')) resolve(text);
      });
    });
    await new Promise((r) => setTimeout(r, 50));
    running.app.events.emit('app:status', { state: 'ready', at: 123 });
    expect(await received).toContain('data: {"state":"ready","at":123}');
    res.body.on('error', () => {});
    res.body.destroy();
  });

  it('does not serve files outside the renderer folder', async () => {
    const res = await request(`${running.web.origin}/..%2f..%2fpackage.json`);
    expect(res.statusCode).toBe(400);
    await res.body.dump();
  });
});

describe('web mode on IPv6 loopback (--host ::1)', () => {
  it('prints a bracketed address and answers Host: [::1]:PORT', async () => {
    const web = await startWebServer({ app: running.app, rendererDir: rendererBuildDir, host: '::1' });
    try {
      expect(web.url).toMatch(/^http:\/\/\[::1\]:\d+\/#token=/);
      const port = new URL(web.origin).port;
      const res = await request(`${web.origin}/api/rpc/app:info`, {
        method: 'POST',
        headers: { 'x-reelsync-token': web.token },
        body: '{}',
      });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toMatchObject({ ok: true, value: { mode: 'web' } });
      const named = await request(`${web.origin}/`, { headers: { host: `[::1]:${port}` } });
      expect(named.statusCode).toBe(200);
      await named.body.dump();
      const foreign = await request(`${web.origin}/`, { headers: { host: `[::2]:${port}` } });
      expect(foreign.statusCode).toBe(421);
      await foreign.body.dump();
    } finally {
      await web.close();
    }
  });
});
