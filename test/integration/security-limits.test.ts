import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, DATALAKE_BASE_PATH } from '../../src/shared/api-types';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

const IDLE_MS = 800;
let service: TestService;
let dlKey: string;
const testService = useService({
  config: { indexer: { paused: true }, http: { idleTimeoutMs: IDLE_MS, maxJsonBytes: 64 * 1024 } },
});
beforeAll(async () => {
  service = testService();
  dlKey = service.createKey('test', { kind: 'datalake' });
}, 60_000);

/** Opens a raw socket, writes `text`, and resolves with how long the server kept it open and what it answered. */
function stallWith(
  text: string,
  trickle?: { everyMs: number; bytes: string },
): Promise<{ openMs: number; answer: string }> {
  const { port } = new URL(service.origin);
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    let answer = '';
    const socket: Socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    const timer = trickle ? setInterval(() => socket.write(trickle.bytes), trickle.everyMs) : undefined;
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ openMs: Date.now() - t0, answer });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the service kept a stalled connection open for 15 s (idleTimeoutMs ${IDLE_MS})`));
    }, 15_000);
  });
}

describe('slow clients', () => {
  it('closes a connection that sends request headers and then stalls the body', async () => {
    const head = `POST ${API_BASE_PATH}/list_videos HTTP/1.1\r\nHost: x\r\nAuthorization: ${service.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"page":`;
    const { openMs } = await stallWith(head);
    expect(openMs).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(openMs).toBeLessThan(IDLE_MS + 3000);
  });

  it('closes a connection that sends half the headers and stalls', async () => {
    const { openMs } = await stallWith(`GET ${API_BASE_PATH}/get_metadata?video_no=x HTTP/1.1\r\nHost: x\r\nAuthor`);
    expect(openMs).toBeLessThan(IDLE_MS + 3000);
  });

  it('closes an idle connection that never sends anything', async () => {
    const { openMs, answer } = await stallWith('');
    expect(answer).toBe('');
    expect(openMs).toBeLessThan(IDLE_MS + 3000);
  });

  it('still serves a client that sends its body slowly but steadily within the idle window', async () => {
    const body = JSON.stringify({ page: 1, size: 5 });
    const head = `POST ${API_BASE_PATH}/list_videos HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${service.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const chars = [...body];
    const { answer } = await new Promise<{ answer: string }>((resolve) => {
      let answer = '';
      const socket = connect(Number(new URL(service.origin).port), '127.0.0.1', () => {
        socket.write(head);
        const timer = setInterval(() => {
          const c = chars.shift();
          if (c === undefined) clearInterval(timer);
          else socket.write(c);
        }, IDLE_MS / 4);
      });
      socket.on('data', (c: Buffer) => (answer += c.toString()));
      socket.on('close', () => resolve({ answer }));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"success":true');
  });
});

describe('request size limits', () => {
  const big = JSON.stringify({ page: 1, size: 5, pad: 'x'.repeat(100 * 1024) });
  it('refuses an oversized JSON body on interface A with 413 and an envelope', async () => {
    const res = await request(`${service.baseUrl}/list_videos`, {
      method: 'POST',
      headers: { authorization: service.key, 'content-type': 'application/json' },
      body: big,
    });
    expect(res.statusCode).toBe(413);
    const env = (await res.body.json()) as Record<string, unknown>;
    expect(env).toMatchObject({ code: '0001', success: false, failed: true, data: null });
    expect(String(env.msg)).toMatch(/too large/i);
  });

  it('refuses an oversized JSON body on interface B with 413 payload_too_large', async () => {
    const res = await request(`${service.origin}${DATALAKE_BASE_PATH}/collections`, {
      method: 'POST',
      headers: { authorization: dlKey, 'content-type': 'application/json' },
      body: big,
    });
    expect(res.statusCode).toBe(413);
    expect(await res.body.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('answers oversized headers with 431 and stays up', async () => {
    const res = await request(`${service.baseUrl}/get_metadata?video_no=x`, {
      headers: { authorization: service.key, 'x-pad': 'y'.repeat(20_000) },
    }).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    if (res instanceof Error) expect(res.message).toMatch(/socket|closed|reset/i);
    else {
      expect(res.statusCode).toBe(431);
      await res.body.dump();
    }
    const ok = await request(`${service.baseUrl}/get_metadata?video_no=x`, { headers: { authorization: service.key } });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
  });
});
