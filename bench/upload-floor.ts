import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { curlUpload } from './service-upload-run';

/*
 * What an upload costs before the service does anything of its own, measured in the same run as the service, so that a
 * goal set against `cp` can be read against what receiving and hashing the bytes alone take on this machine.
 */

/** curl -F sending `file` to a bare Node HTTP server that reads the body and drops it (no parse, hash or write). */
export async function uploadToBareReceiver(file: string): Promise<void> {
  const server = createServer((request, response) => {
    request.on('data', () => {});
    request.on('end', () => response.end('{"code":"0000"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await curlUpload({ baseUrl: `http://127.0.0.1:${port}`, key: 'none' }, file);
  } finally {
    await close(server);
  }
}

/** Node's SHA-256 (the hash the service records) of `file`, read from the page cache: one core's work. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
