import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { Accounts } from '../../src/server/accounts/accounts';
import { parseConfig } from '../../src/server/config';
import type { ServiceContext } from '../../src/server/context';
import { callbackHandler } from '../../src/server/jobs/callback-worker';
import type { JobRow } from '../../src/server/jobs/job-queue';
import { guardedAgent } from '../../src/server/security/ssrf';
import { openServiceDb } from '../../src/server/storage/db';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { startHitServer } from '../helpers/hit-server';
import { tempDir } from '../helpers/temp';

describe('guarded outbound agent', () => {
  it('refuses loopback IP literals and names that resolve to loopback when private targets are not allowed', async () => {
    const target = await startHitServer('127.0.0.1');
    try {
      const port = new URL(target.url).port;
      const strict = guardedAgent({ allowPrivateTargets: false });
      for (const url of [
        target.url,
        `http://localhost:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        `http://2130706433:${port}/`,
        `http://0x7f.1:${port}/`,
      ]) {
        await expect(request(url, { dispatcher: strict }), url).rejects.toThrow(
          /refused to connect|allowPrivateTargets/,
        );
      }
      expect(target.hits).toEqual([]);
      const open = guardedAgent({ allowPrivateTargets: true });
      const res = await request(target.url, { dispatcher: open });
      expect(await res.body.text()).toBe('reached');
    } finally {
      await target.close();
    }
  });

  it('checks every redirect hop, and connects to the address it checked', async () => {
    // 127.0.0.1 stands for "public" and 127.0.0.2 for "private" under a narrowed rule.
    const publicSide = await startHitServer('127.0.0.1');
    const privateSide = await startHitServer('127.0.0.2');
    try {
      const rule = (ip: string): boolean => ip !== '127.0.0.1';
      const agent = guardedAgent({ allowPrivateTargets: false, maxRedirections: 3, isRefused: rule });
      const ok = await request(`${publicSide.url}/plain`, { dispatcher: agent });
      expect(await ok.body.text()).toBe('reached');
      const redirected = request(`${publicSide.url}/to?u=${encodeURIComponent(`${privateSide.url}/secret`)}`, {
        dispatcher: agent,
      });
      await expect(redirected).rejects.toThrow(/refused to connect to 127\.0\.0\.2/);
      expect(publicSide.hits.some((h) => h.startsWith('/to'))).toBe(true);
      expect(privateSide.hits).toEqual([]);
      // "localhost" resolves to 127.0.0.1 (allowed) or ::1 (refused by the rule): the socket only ever gets an allowed one.
      const byName = await request(`http://localhost:${new URL(publicSide.url).port}/named`, { dispatcher: agent });
      expect(await byName.body.text()).toBe('reached');
    } finally {
      await publicSide.close();
      await privateSide.close();
    }
  });

  it('the interface A upload callback job is refused for a loopback URL when private targets are off, delivered when on', async () => {
    const target = await startHitServer('127.0.0.1');
    const { dir, cleanup } = await tempDir('reelsync-callback-');
    const db = openServiceDb(dir);
    try {
      const accounts = new Accounts(new SqliteSql(db));
      const accountId = (await accounts.ensure('a')).id;
      const job = (url: string): JobRow => ({
        id: 1,
        kind: 'callback',
        ref: 'VI1',
        payload: JSON.stringify({ url, accountId, body: { videoNo: 'VI1', status: 'PARSE' } }),
        state: 'running',
        attempts: 1,
        max_attempts: 3,
        retry_after: 0,
        last_error: null,
      });
      const noLease = { hold: () => Promise.resolve() }; // a callback commits nothing under its lease
      const ctxWith = (allow: boolean): ServiceContext =>
        ({ config: parseConfig({ network: { allowPrivateTargets: allow } }), accounts }) as ServiceContext;
      const refused = await callbackHandler(ctxWith(false))(
        job(`${target.url}/cb`),
        new AbortController().signal,
        noLease,
      );
      expect(refused.type).toBe('retry');
      expect(refused.type === 'retry' ? refused.error : '').toMatch(/refused to connect to 127\.0\.0\.1/);
      expect(target.hits).toEqual([]);
      const sent = await callbackHandler(ctxWith(true))(job(`${target.url}/cb`), new AbortController().signal, noLease);
      expect(sent).toEqual({ type: 'finished' });
      expect(target.hits).toEqual(['/cb']);
    } finally {
      db.close();
      await target.close();
      await cleanup();
    }
  });
});
