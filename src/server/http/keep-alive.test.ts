import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keepAliveWhile } from './keep-alive';

const IDLE_MS = 300;
let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  // The service's own socket settings (server.ts): a connection silent for the idle timeout is closed.
  app = Fastify({ requestTimeout: 0, connectionTimeout: IDLE_MS });
  app.post('/silent', async () => {
    await sleep(IDLE_MS * 4);
    return { done: true };
  });
  app.post('/kept', async (_request, reply) =>
    keepAliveWhile(reply, IDLE_MS, async () => {
      await sleep(IDLE_MS * 4);
      return { done: true };
    }),
  );
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

function post(path: string): Promise<{ status: number; body: string; processing: number }> {
  return new Promise((resolve, reject) => {
    let processing = 0;
    const req = request(
      `${origin}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, processing }));
      },
    );
    req.on('information', () => processing++);
    req.on('error', reject);
    req.end('{}');
  });
}

it('work longer than the idle timeout after the body: the connection is dropped unless kept alive with 102', async () => {
  await expect(post('/silent')).rejects.toThrow(/socket hang up|ECONNRESET/);
  const kept = await post('/kept');
  expect(kept).toMatchObject({ status: 200, body: '{"done":true}' });
  expect(kept.processing).toBeGreaterThanOrEqual(3);
});
