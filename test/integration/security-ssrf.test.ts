import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import type { ServiceContext } from '../../src/server/context';
import { callbackHandler } from '../../src/server/jobs/callback-worker';
import type { JobRow } from '../../src/server/jobs/job-queue';
import { guardedAgent } from '../../src/server/security/ssrf';
import { FIXTURES } from '../fixtures/media';
import { datalakeClient, startMediaServer, startWebhookReceiver, waitForOperation, type DatalakeClient, type LocalServer } from '../helpers/datalake';
import { startService, type TestService } from '../helpers/service';

/** A plain server on `host` counting its hits; /to?u=URL answers a 302 to URL. */
async function hitCounter(host: string): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
    if (to) res.writeHead(302, { location: to }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://${host}:${port}`, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('guarded outbound agent', () => {
  it('refuses loopback IP literals and names that resolve to loopback when private targets are not allowed', async () => {
    const target = await hitCounter('127.0.0.1');
    try {
      const port = new URL(target.url).port;
      const strict = guardedAgent({ allowPrivateTargets: false });
      for (const url of [target.url, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://2130706433:${port}/`, `http://0x7f.1:${port}/`]) {
        await expect(request(url, { dispatcher: strict }), url).rejects.toThrow(/refused to connect|allowPrivateTargets/);
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
    const publicSide = await hitCounter('127.0.0.1');
    const privateSide = await hitCounter('127.0.0.2');
    try {
      const rule = (ip: string): boolean => ip !== '127.0.0.1';
      const agent = guardedAgent({ allowPrivateTargets: false, maxRedirections: 3, isRefused: rule });
      const ok = await request(`${publicSide.url}/plain`, { dispatcher: agent });
      expect(await ok.body.text()).toBe('reached');
      const redirected = request(`${publicSide.url}/to?u=${encodeURIComponent(`${privateSide.url}/secret`)}`, { dispatcher: agent });
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
    const target = await hitCounter('127.0.0.1');
    try {
      const job = (url: string): JobRow => ({
        id: 1, kind: 'callback', ref: 'VI1', payload: JSON.stringify({ url, body: { videoNo: 'VI1', status: 'PARSE' } }),
        state: 'running', attempts: 1, max_attempts: 3, retry_after: 0, last_error: null,
      });
      const ctxWith = (allow: boolean): ServiceContext => ({ config: parseConfig({ network: { allowPrivateTargets: allow } }) }) as ServiceContext;
      const refused = await callbackHandler(ctxWith(false))(job(`${target.url}/cb`), new AbortController().signal);
      expect(refused.kind).toBe('retry');
      expect(refused.kind === 'retry' ? refused.error : '').toMatch(/refused to connect to 127\.0\.0\.1/);
      expect(target.hits).toEqual([]);
      const sent = await callbackHandler(ctxWith(true))(job(`${target.url}/cb`), new AbortController().signal);
      expect(sent).toEqual({ kind: 'finished' });
      expect(target.hits).toEqual(['/cb']);
    } finally {
      await target.close();
    }
  });
});

interface Delivery { status: string; message: string; response_code: number | null }

describe.each([
  { allow: false, name: 'network.allowPrivateTargets false' },
  { allow: true, name: 'network.allowPrivateTargets true' },
])('the service with $name', ({ allow }) => {
  let service: TestService;
  let dl: DatalakeClient;
  let media: LocalServer & { hits?: number };
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let collection: string;
  beforeAll(async () => {
    media = await startMediaServer();
    receiver = await startWebhookReceiver(() => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    service = await startService({ config: { network: { allowPrivateTargets: allow }, indexer: { paused: true }, webhooks: { maxAttempts: 1, baseDelayMs: 100 } } });
    dl = datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' }));
    collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'ssrf' })).json.collection_id;
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await media?.close();
    await receiver?.close();
  });

  it(allow ? 'fetches a 127.0.0.1 source_url (preprocess completes)' : 'refuses a 127.0.0.1 source_url and its webhook, touching neither', async () => {
    const source = `${media.url}/media/${FIXTURES.hevcMov.file}`;
    const hook = `${receiver.url}/ok`;
    const op = (await dl.post<{ operation: string }>('/videos', { collection_id: collection, source_url: source, callback_url: hook })).json.operation;
    if (allow) {
      // The indexer is paused: preprocess finishing proves the fetch went through.
      const running = await waitForOperation(dl, op, 30_000, (o) => o.progress.preprocess === 'done' || o.done);
      expect(running.error).toBeNull();
      expect(running.progress.preprocess).toBe('done');
      return;
    }
    const done = await waitForOperation(dl, op, 30_000);
    expect(done.error?.code).toBe('source_unresolved');
    expect(done.error?.message).toMatch(/refused to connect to 127\.0\.0\.1.*allowPrivateTargets/);
    const end = Date.now() + 15_000;
    let deliveries: Delivery[] = [];
    while (Date.now() < end) {
      deliveries = (await dl.get<{ deliveries: Delivery[] }>(`/operations/${op}/deliveries`)).json.deliveries;
      if (deliveries[0]?.status === 'dead') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(deliveries[0]?.status).toBe('dead');
    expect(deliveries[0]?.message).toMatch(/refused to connect to 127\.0\.0\.1/);
    expect(receiver.received).toEqual([]);
  }, 60_000);

  it(allow ? 'starts pulling a 127.0.0.1 live source' : 'refuses a 127.0.0.1 live source before ffmpeg runs', async () => {
    const created = await dl.post<{ stream_id: string }>('/streams', { collection_id: collection, source_url: `${media.url}/media/none.m3u8` });
    expect(created.status).toBe(201);
    const end = Date.now() + 20_000;
    let stream: { status: string; error: string | null } = { status: 'starting', error: null };
    while (Date.now() < end && (stream.status === 'starting' || stream.status === 'live')) {
      stream = (await dl.get<{ status: string; error: string | null }>(`/streams/${created.json.stream_id}`)).json;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(stream.status).toBe('failed');
    // Allowed: ffmpeg reached the server and got a 404. Refused: the guard stopped it first.
    if (allow) expect(stream.error).toMatch(/ffmpeg/);
    else expect(stream.error).toMatch(/refused to connect to 127\.0\.0\.1/);
  }, 30_000);
});
