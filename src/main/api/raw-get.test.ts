import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { rawGet, type RawGetOptions } from './raw-get';

let dir: string;
let cleanup: () => Promise<void>;
const servers: net.Server[] = [];

beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  await cleanup();
});

/** A server that answers every connection by writing `pieces` (with a pause between them) and then `end`s or hangs. */
async function rawServer(
  pieces: (string | Buffer)[],
  o: { end?: boolean; gapMs?: number; tlsCert?: { key: Buffer; cert: Buffer } } = {},
): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const onSocket = (socket: net.Socket): void => {
    socket.once('data', (req: Buffer) => {
      requests.push(req.toString('latin1'));
      void (async () => {
        for (const p of pieces) {
          if (socket.destroyed) return;
          socket.write(p);
          await new Promise((r) => setTimeout(r, o.gapMs ?? 5));
        }
        if (o.end ?? true) socket.end();
      })();
    });
    socket.on('error', () => undefined);
  };
  const server = o.tlsCert ? tls.createServer(o.tlsCert, onSocket) : net.createServer(onSocket);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return { url: `${o.tlsCert ? 'https' : 'http'}://127.0.0.1:${port}/download?x=1`, requests };
}

const opts = (extra: Partial<RawGetOptions> = {}): RawGetOptions => ({
  headers: { authorization: 'key' },
  idleTimeoutMs: 5_000,
  ...extra,
});
const toFile =
  (path: string, start = 0) =>
  () => ({ kind: 'file' as const, path, start });

describe('rawGet', () => {
  it('writes a Content-Length body to the file, split across many reads, and sends the request headers', async () => {
    const body = randomBytes(300_000);
    const { url, requests } = await rawServer([
      `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.subarray(0, 7),
      body.subarray(7, 150_000),
      body.subarray(150_000),
    ]);
    const path = join(dir, 'a.bin');
    const res = await rawGet(url, opts(), toFile(path));
    expect(res.head.status).toBe(200);
    expect(res.bytes).toBe(body.length);
    expect((await readFile(path)).equals(body)).toBe(true);
    expect(requests[0]).toMatch(/^GET \/download\?x=1 HTTP\/1\.1\r\n/);
    expect(requests[0]).toContain('\r\nauthorization: key\r\n');
  });

  it('decodes a chunked body, skips a 103 head, and reads a body delimited by the connection closing', async () => {
    const chunked = await rawServer([
      'HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel',
      'lo\r\n6\r\n world\r\n0\r\n\r\n',
    ]);
    const a = join(dir, 'chunked.txt');
    expect((await rawGet(chunked.url, opts(), toFile(a))).bytes).toBe(11);
    expect(await readFile(a, 'utf8')).toBe('hello world');
    const untilClose = await rawServer(['HTTP/1.1 200 OK\r\n\r\nall of ', 'it']);
    const b = join(dir, 'close.txt');
    await rawGet(untilClose.url, opts(), toFile(b));
    expect(await readFile(b, 'utf8')).toBe('all of it');
  });

  it('writes a large chunked body whose chunks span reads', async () => {
    const body = randomBytes(5_000_000);
    const { url } = await rawServer([
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ...[0, 1, 2, 3, 4].map((i) =>
        Buffer.concat([Buffer.from('f4240\r\n'), body.subarray(i * 1e6, (i + 1) * 1e6), Buffer.from('\r\n')]),
      ),
      '0\r\n\r\n',
    ]);
    const path = join(dir, 'sync.bin');
    expect((await rawGet(url, opts(), toFile(path))).bytes).toBe(body.length);
    expect((await readFile(path)).equals(body)).toBe(true);
  });

  it('resumes into an existing part file at its offset', async () => {
    const path = join(dir, 'part.bin');
    await writeFile(path, 'first half|');
    const { url } = await rawServer(['HTTP/1.1 206 Partial Content\r\nContent-Length: 11\r\n\r\nsecond half']);
    await rawGet(url, opts(), toFile(path, 11));
    expect(await readFile(path, 'utf8')).toBe('first half|second half');
  });

  it('keeps every byte received when the connection ends early, and says how many were missing', async () => {
    const path = join(dir, 'cut.bin');
    const { url } = await rawServer(['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', 'x'.repeat(40)]);
    await expect(rawGet(url, opts(), toFile(path))).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringMatching(/after 40 of 100/) as unknown,
    });
    expect((await readFile(path)).length).toBe(40);
  });

  it('gives up on a silent server after the idle timeout, with the bytes so far on disk', async () => {
    const path = join(dir, 'idle.bin');
    const { url } = await rawServer(['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', 'y'.repeat(10)], { end: false });
    await expect(rawGet(url, opts({ idleTimeoutMs: 300 }), toFile(path))).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    expect((await readFile(path)).length).toBe(10);
  });

  it('stops on abort, and stops reading after the head when the body is not wanted', async () => {
    const { url } = await rawServer(
      ['HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n', ...Array.from({ length: 100 }, () => 'z'.repeat(10_000))],
      { gapMs: 20 },
    );
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('user cancelled')), 100);
    await expect(rawGet(url, opts({ signal: ac.signal }), toFile(join(dir, 'ab.bin')))).rejects.toThrow(
      'user cancelled',
    );
    const started = Date.now();
    const none = await rawGet(url, opts(), () => ({ kind: 'none' }));
    expect(none.bytes).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('collects a text body up to a limit', async () => {
    const { url } = await rawServer([
      'HTTP/1.1 402 Payment Required\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"code":"02"}',
    ]);
    expect((await rawGet(url, opts(), () => ({ kind: 'text', limit: 100 }))).text).toBe('{"code":"02"}');
    await expect(rawGet(url, opts(), () => ({ kind: 'text', limit: 5 }))).rejects.toThrow(/larger than 5 bytes/);
  });

  it('refuses garbage instead of a response, and header values that would split the request', async () => {
    const { url } = await rawServer(['SSH-2.0-OpenSSH_9\r\n\r\n']);
    await expect(rawGet(url, opts(), () => ({ kind: 'discard' }))).rejects.toThrow(/not an HTTP\/1.x response/);
    await expect(
      rawGet(url, opts({ headers: { authorization: 'a\r\nX-Evil: 1' } }), () => ({ kind: 'discard' })),
    ).rejects.toThrow(/invalid request header/);
  });

  it('speaks https, trusting only the certificates it should', async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const cert = await readFile(join(dir, 'c.pem'));
    const body = randomBytes(24_000_000);
    const { url } = await rawServer([`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`, body], {
      tlsCert: { key: await readFile(join(dir, 'k.pem')), cert },
    });
    await expect(rawGet(url, opts(), toFile(join(dir, 'untrusted.bin')))).rejects.toThrow(/self[- ]signed/i);
    const path = join(dir, 'tls.bin');
    // Larger than the read pool and the write queue: TLS keeps delivering after a pause, and no buffer may be reused early.
    expect((await rawGet(url, opts({ ca: cert }), toFile(path))).bytes).toBe(body.length);
    expect((await readFile(path)).equals(body)).toBe(true);
  });
});
