import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReelsyncApp } from '../app';
import { CONTENT_SECURITY_POLICY } from '../security';
import { handleMedia } from './media-route';
import { serveStatic } from './static-files';

export interface WebServerOptions {
  app: ReelsyncApp;
  rendererDir: string;
  host?: string;
  port?: number;
  /** Secret every API call must carry; generated when omitted. */
  token?: string;
}

export interface WebServer {
  /** Address to open in a browser, token included in the fragment. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/**
 * Headless web mode: the built renderer plus the IPC contract over HTTP (POST /api/rpc/<channel>)
 * and Server-Sent Events (GET /api/events). Loopback only; every API call needs the session token.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const { app } = options;
  const sseClients = new Set<ServerResponse>();
  const offEvents = app.events.onAny((event, payload) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const client of sseClients) client.write(frame);
  });

  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      app.log.error({ err: String(err), url: req.url }, 'web request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Refuse DNS-rebinding: only our own loopback host names are served.
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('misdirected request');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname.startsWith('/api/')) {
      await handleApi(req, res, url);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    await serveStatic(options.rendererDir, url.pathname, res, SECURITY_HEADERS);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // A page of another site never calls the API, even with the token: browsers name the calling page in Origin.
    const callerOrigin = req.headers.origin;
    if (callerOrigin !== undefined && !allowedOrigins.has(callerOrigin.toLowerCase())) {
      sendJson(res, 403, { ok: false, error: { code: 'forbidden', message: 'calls from another site are refused' } });
      return;
    }
    const presented = req.headers['x-reelsync-token'] ?? url.searchParams.get('token') ?? '';
    if (!tokenMatches(String(presented), token)) {
      sendJson(res, 401, { ok: false, error: { code: 'bad_request', message: 'missing or wrong session token' } });
      return;
    }
    if (url.pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      sseClients.add(res);
      req.on('close', () => sseClients.delete(res));
      return;
    }
    if (url.pathname.startsWith('/api/media/')) {
      await handleMedia(app, req, res, url);
      return;
    }
    const match = /^\/api\/rpc\/([a-z]+:[a-zA-Z-]+)$/.exec(url.pathname);
    if (!match?.[1] || req.method !== 'POST') {
      sendJson(res, 404, {
        ok: false,
        error: { code: 'unknown_channel', message: `no route ${req.method} ${url.pathname}` },
      });
      return;
    }
    const body = await readJson(req);
    if (!body.ok) {
      if (body.tooLarge) res.setHeader('connection', 'close');
      sendJson(res, body.tooLarge ? 413 : 400, { ok: false, error: { code: 'bad_request', message: body.message } });
      return;
    }
    sendJson(res, 200, await app.registry.invoke(match[1], body.value));
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (err) => {
      offEvents(); // the caller may try another port with a new server
      reject(err);
    });
    server.listen(options.port ?? 0, host, () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  const authority = `${urlHost(host)}:${port}`;
  allowedHosts = new Set([authority, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));
  const origin = `http://${authority}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    close: async () => {
      offEvents();
      for (const client of sseClients) client.end();
      sseClients.clear();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A host as it appears in a URL and a Host header: IPv6 literals in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function tokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(body);
}

type JsonBody = { ok: true; value: unknown } | { ok: false; message: string; tooLarge?: boolean };

async function readJson(req: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return { ok: false, message: `request body over ${MAX_BODY} bytes`, tooLarge: true };
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, message: 'request body is not valid JSON' };
  }
}
