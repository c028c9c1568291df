import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  range: string | undefined;
  status: number;
  /** Body bytes passed on to the client. */
  bytes: number;
  cut: boolean;
  stalled: boolean;
}

export interface CuttingProxy {
  /** Same path layout as the target: http://127.0.0.1:PORT */
  origin: string;
  requests: ProxiedRequest[];
  /** The next response bodies to cut: each entry is the number of body bytes passed before the socket is destroyed. */
  cutAfter: number[];
  /** The next response bodies to stall: after N body bytes nothing more is relayed, and the connection stays open. */
  stallAfter: number[];
  /** The next N download requests are passed on without their Range header (a server that ignores ranges). */
  dropRange: number;
  /** Rewrites response headers of /download answers (e.g. a hostile Content-Disposition). */
  rewriteHeaders: ((h: IncomingHttpHeaders) => IncomingHttpHeaders) | null;
  /** Answers /download requests with this (status, content-type, body) instead of asking the target. */
  override: { status: number; contentType: string; body: string } | null;
  close(): Promise<void>;
}

/**
 * An HTTP proxy on 127.0.0.1 in front of the real service: passes requests through, records each one (Range header,
 * status, bytes relayed), and can drop the connection after N body bytes to simulate a connection lost mid-stream.
 */
export async function startCuttingProxy(target: string): Promise<CuttingProxy> {
  const t = new URL(target);
  const proxy: CuttingProxy = {
    origin: '',
    requests: [],
    cutAfter: [],
    stallAfter: [],
    dropRange: 0,
    rewriteHeaders: null,
    override: null,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const record: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      range: req.headers.range,
      status: 0,
      bytes: 0,
      cut: false,
      stalled: false,
    };
    proxy.requests.push(record);
    const isDownload = (req.url ?? '').includes('/download');
    if (isDownload && proxy.override) {
      record.status = proxy.override.status;
      res.writeHead(proxy.override.status, { 'content-type': proxy.override.contentType });
      res.end(proxy.override.body);
      return;
    }
    const headers = { ...req.headers, host: t.host };
    if (isDownload && proxy.dropRange > 0) {
      proxy.dropRange--;
      delete headers.range;
    }
    const upstream = httpRequest(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers },
      (up) => {
        record.status = up.statusCode ?? 0;
        const limit = isDownload ? proxy.cutAfter.shift() : undefined;
        const stall = isDownload && limit === undefined ? proxy.stallAfter.shift() : undefined;
        const answer = isDownload && proxy.rewriteHeaders ? proxy.rewriteHeaders({ ...up.headers }) : up.headers;
        res.writeHead(up.statusCode ?? 502, answer);
        up.on('data', (chunk: Buffer) => {
          if (record.cut || record.stalled) return;
          if (stall !== undefined && record.bytes + chunk.length >= stall) {
            const head = chunk.subarray(0, Math.max(0, stall - record.bytes));
            record.bytes += head.length;
            record.stalled = true;
            res.write(head);
            up.pause();
            return;
          }
          if (limit !== undefined && record.bytes + chunk.length >= limit) {
            const head = chunk.subarray(0, Math.max(0, limit - record.bytes));
            record.bytes += head.length;
            record.cut = true;
            // The bytes already passed, a moment for the client to take them in, then FIN: the body ends too early.
            up.destroy();
            res.write(head, () => setTimeout(() => res.socket?.end(), 150));
            return;
          }
          record.bytes += chunk.length;
          if (!res.write(chunk)) {
            up.pause();
            res.once('drain', () => up.resume());
          }
        });
        up.on('end', () => {
          if (!record.cut && !record.stalled) res.end();
        });
        up.on('error', () => res.socket?.destroy());
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
