import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATALAKE_BASE_PATH } from '../../src/shared/api-types';
import { BLOB_BACKENDS, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  let service: TestService;
  let key: string;

  const testService = useService({ backend, config: { indexer: { paused: true } } });
  beforeAll(async () => {
    service = testService();
    key = service.createKey('test', { kind: 'datalake' });
  });

  /** A multipart ingest body cut in two: everything up to the middle of the file part, and the rest. */
  function ingestBody(json: unknown): { head: string; first: Buffer; rest: Buffer } {
    const boundary = 'reelsync-test-boundary';
    const file = randomBytes(4 * 1024 * 1024);
    const start = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="json"\r\n\r\n${JSON.stringify(json)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const end = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([start, file, end]);
    const url = new URL(`${service.origin}${DATALAKE_BASE_PATH}/videos`);
    const head = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const half = start.length + file.length / 2;
    return { head, first: body.subarray(0, half), rest: body.subarray(half) };
  }

  describe('datalake multipart refusals', () => {
    it('answers a refused upload only after reading its body, on a connection that stays open', async () => {
      const { head, first, rest } = ingestBody({ collection_id: 'col_not_mine' });
      const url = new URL(service.origin);
      const socket = net.connect(Number(url.port), url.hostname);
      let received = '';
      let closed = false;
      socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
      socket.on('close', () => (closed = true));
      socket.on('error', () => undefined);
      await new Promise((r) => socket.once('connect', r));
      socket.write(head);
      socket.write(first);
      // The refusal is known now (the collection is not ours), but answering before the rest of the body is read would
      // make a real client see a reset (EPIPE) instead of the answer.
      await new Promise((r) => setTimeout(r, 500));
      expect(received).toBe('');
      expect(closed).toBe(false);
      socket.write(rest);
      const deadline = Date.now() + 10_000;
      while (!received.includes('"not_found"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(received).toMatch(/^HTTP\/1\.1 404 /);
      expect(received.toLowerCase()).not.toContain('connection: close');
      socket.destroy();
    });
  });
});
