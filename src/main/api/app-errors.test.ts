import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { createLogger } from '../log';
import { libraryCall } from './app-errors';
import { LibraryClient } from './client';

/** A real server on 127.0.0.1 answering every request with `status` and `body`. */
async function answering(status: number, body: string): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/serve/api/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const envelope = (code: string) => JSON.stringify({ code, msg: 'no', data: null, success: false, failed: true });

describe('one mapping from library failures to UI error codes', () => {
  it.each([
    [503, 'unavailable', 'offline'],
    [500, envelope('0001'), 'offline'],
    [401, envelope('0401'), 'bad_request'],
    [402, envelope('0402'), 'insufficient_balance'],
    [429, envelope('0429'), 'rate_limited'],
    [400, envelope('0400'), 'bad_request'],
    [302, '', 'internal'],
  ])('HTTP %i answers %s -> %s', async (status, body, code) => {
    const server = await answering(status, body);
    const client = new LibraryClient({ baseUrl: server.baseUrl, key: 'k', logger: createLogger('test') });
    try {
      const err = await libraryCall(() => client.listFolders()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe(code);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a refused connection is offline', async () => {
    const server = await answering(200, '');
    await server.close();
    const client = new LibraryClient({ baseUrl: server.baseUrl, key: 'k', logger: createLogger('test') });
    const err = await libraryCall(() => client.listFolders()).catch((e: unknown) => e);
    await client.close();
    expect((err as AppError).code).toBe('offline');
  });
});
