import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepRequestsAlive } from './keep-alive';

const IDLE_MS = 300;

/** The service's own socket settings (server.ts): a connection silent for the idle timeout is closed. */
async function server(keptAlive: boolean): Promise<{ app: FastifyInstance; origin: string }> {
  const app = Fastify({ requestTimeout: 0, connectionTimeout: IDLE_MS });
  if (keptAlive) keepRequestsAlive(app, IDLE_MS);
  app.post('/slow', async () => {
    await sleep(IDLE_MS * 4);
    return { done: true };
  });
  app.get('/slow', async () => {
    await sleep(IDLE_MS * 4);
    return { done: true };
  });
  // A body that trickles in slower than 102s would be sent: none while it arrives, only after its last byte.
  app.post('/quick', async () => ({ done: true }));
  return { app, origin: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

function call(
  origin: string,
  method: string,
  path: string,
  body?: (write: (chunk: string) => void) => Promise<void>,
): Promise<{ status: number; body: string; processing: number }> {
  return new Promise((resolve, reject) => {
    let processing = 0;
    const req = request(`${origin}${path}`, { method, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, processing }));
    });
    req.on('information', () => processing++);
    req.on('error', reject);
    if (!body) req.end(method === 'GET' ? undefined : '{}');
    else
      body((chunk) => req.write(chunk)).then(
        () => req.end(),
        (err: unknown) => reject(err as Error),
      );
  });
}

describe('work longer than the idle timeout after the body', () => {
  let silent: { app: FastifyInstance; origin: string };
  let kept: { app: FastifyInstance; origin: string };
  beforeAll(async () => {
    silent = await server(false);
    kept = await server(true);
  });
  afterAll(async () => {
    await silent.app.close();
    await kept.app.close();
  });

  it('drops the connection unless every route is kept alive with 102 Processing', async () => {
    await expect(call(silent.origin, 'POST', '/slow')).rejects.toThrow(/socket hang up|ECONNRESET/);
    for (const method of ['POST', 'GET']) {
      const answer = await call(kept.origin, method, '/slow');
      expect(answer).toMatchObject({ status: 200, body: '{"done":true}' });
      expect(answer.processing).toBeGreaterThanOrEqual(3);
    }
  });

  it('sends no 102 while the body is still arriving, nor to a quick answer', async () => {
    const trickled = await call(kept.origin, 'POST', '/quick', async (write) => {
      write('{"a":');
      for (let i = 0; i < 8; i++) {
        await sleep(IDLE_MS / 3);
        write(' ');
      }
      write('1}');
    });
    expect(trickled).toMatchObject({ status: 200, processing: 0 });
  });
});
