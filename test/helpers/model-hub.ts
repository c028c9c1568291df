import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A model host on 127.0.0.1 in the Hugging Face Hub's layout and headers: `/<repo>/resolve/<revision>/<file>`.
 * Files kept in LFS (*.onnx) answer 302 to `/cdn/<sha256>` with `X-Linked-Etag: "<sha256>"` and `X-Linked-Size`;
 * the others answer 200 with `ETag: "<git blob sha1>"`. The CDN honours Range. Faults for the tests: cut a file's
 * first transfer after some bytes, state a wrong checksum, send slowly.
 */
export interface ModelHub {
  url: string;
  /** Every request: method, path and Range header. */
  requests: { method: string; path: string; range?: string }[];
  faults: {
    /** The first GET of this file (its CDN address) sends this many bytes, then the connection is cut. */
    cutOnce?: { file: string; afterBytes: number };
    /** Every GET of this file (its CDN address) sends this many bytes, then nothing more, the connection left open. */
    stall?: { file: string; afterBytes: number };
    /** This file's stated checksum is wrong. */
    wrongChecksum?: string;
    /** Sends bodies in chunks of `chunk` bytes, `delayMs` apart. */
    slow?: { chunk: number; delayMs: number };
  };
  close(): Promise<void>;
}

export async function startModelHub(repo: string, files: Map<string, Uint8Array>): Promise<ModelHub> {
  const bySha = new Map<string, { name: string; data: Uint8Array }>();
  for (const [name, data] of files) bySha.set(sha256(data), { name, data });
  const cut = new Set<string>();
  const hub: ModelHub = { url: '', requests: [], faults: {}, close: () => Promise.resolve() };

  const send = async (req: IncomingMessage, res: ServerResponse, name: string, data: Uint8Array): Promise<void> => {
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start > data.length) {
      res.writeHead(416, { 'content-range': `bytes */${data.length}` }).end();
      return;
    }
    const headers: Record<string, string> = {
      'content-length': String(data.length - start),
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
    };
    if (range) headers['content-range'] = `bytes ${start}-${data.length - 1}/${data.length}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD') return void res.end();
    let body = data.subarray(start);
    const stall = hub.faults.stall;
    if (stall?.file === name) {
      res.write(body.subarray(0, stall.afterBytes));
      return;
    }
    const fault = hub.faults.cutOnce;
    const cutting = fault?.file === name && !cut.has(name);
    if (cutting) {
      cut.add(name);
      body = body.subarray(0, fault.afterBytes);
    }
    const slow = hub.faults.slow;
    const chunk = slow?.chunk ?? body.length;
    for (let at = 0; at < body.length; at += chunk) {
      if (res.destroyed) return;
      res.write(body.subarray(at, at + chunk));
      if (slow) await new Promise((r) => setTimeout(r, slow.delayMs));
    }
    if (cutting) res.socket?.destroy();
    else res.end();
  };

  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://hub').pathname);
    hub.requests.push({ method: req.method ?? '', path, range: req.headers.range });
    const cdn = /^\/cdn\/([0-9a-f]{64})$/.exec(path);
    if (cdn) {
      const found = bySha.get(cdn[1]!);
      if (!found) return void res.writeHead(404).end();
      void send(req, res, found.name, found.data);
      return;
    }
    const prefix = `/${repo}/resolve/`;
    if (!path.startsWith(prefix)) return void res.writeHead(404).end('Repository not found');
    const name = path.slice(prefix.length).split('/').slice(1).join('/');
    const data = files.get(name);
    if (!data) return void res.writeHead(404).end('Entry not found');
    const lie = hub.faults.wrongChecksum === name;
    if (name.endsWith('.onnx')) {
      const sum = sha256(data);
      res
        .writeHead(302, {
          location: `/cdn/${sum}`,
          'x-linked-etag': `"${lie ? sha256(new Uint8Array([1])) : sum}"`,
          'x-linked-size': String(data.length),
          'x-repo-commit': '0123456789abcdef0123456789abcdef01234567',
        })
        .end();
      return;
    }
    res.setHeader('etag', `"${lie ? gitBlobSha1(new Uint8Array([1])) : gitBlobSha1(data)}"`);
    void send(req, res, name, data);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return hub;
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function gitBlobSha1(data: Uint8Array): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}
