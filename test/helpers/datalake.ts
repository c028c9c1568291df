import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { FormData, request } from 'undici';
import { DATALAKE_BASE_PATH } from '../../src/shared/api-types';
import { MEDIA_DIR } from '../fixtures/media';
import { cliSync, type TestService } from './service';

export interface DlResponse<T = Record<string, unknown>> {
  status: number;
  headers: IncomingHttpHeaders;
  json: T;
}

/** A caller of interface B: raw key in Authorization, JSON in and out. */
export function datalakeClient(origin: string, key: string) {
  const base = `${origin}${DATALAKE_BASE_PATH}`;
  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<DlResponse<T>> => {
    const raw = body instanceof FormData || Buffer.isBuffer(body);
    const res = await request(path.startsWith('http') ? path : `${base}${path}`, {
      method,
      headers: {
        authorization: key,
        ...(body !== undefined && !raw ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : body instanceof FormData || Buffer.isBuffer(body)
            ? body
            : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, json: (text ? JSON.parse(text) : null) as T };
  };
  return {
    base,
    call,
    get: <T = Record<string, unknown>>(path: string) => call<T>('GET', path),
    post: <T = Record<string, unknown>>(path: string, body?: unknown) => call<T>('POST', path, body),
    del: <T = Record<string, unknown>>(path: string) => call<T>('DELETE', path),
  };
}

export type DatalakeClient = ReturnType<typeof datalakeClient>;

export interface Operation {
  operation: string;
  kind: string;
  done: boolean;
  cancelled: boolean;
  resource: string;
  progress: Record<string, string | number>;
  error: { code: string; message: string } | null;
  created_at: string;
  updated_at: string;
}

/** A resumable upload session as POST /videos?upload=resumable, its upload_url and PUT answer it. */
export interface ResumableSession {
  video_id: string;
  upload_url: string;
  chunk_size: number;
  offset: number;
  size: number;
  complete?: boolean;
  error?: { code: string; message: string };
}

/** PUTs `bytes` at `start` of a `total`-byte resumable upload (`url`: its upload_url, or /uploads/<id>). */
export function putChunk(dl: DatalakeClient, url: string, bytes: Buffer, start: number, total: number) {
  return dl.call<ResumableSession>('PUT', url, bytes, {
    'content-type': 'application/octet-stream',
    'content-range': `bytes ${start}-${start + bytes.length - 1}/${total}`,
  });
}

/** Polls an operation until done (or until `until` holds), failing after the timeout. */
export async function waitForOperation(
  dl: DatalakeClient,
  id: string,
  timeoutMs = 90_000,
  until: (op: Operation) => boolean = (op) => op.done,
): Promise<Operation> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await dl.get<Operation>(`/operations/${id}`);
    if (res.status !== 200) throw new Error(`GET operation ${id}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
    if (until(res.json)) return res.json;
    if (Date.now() > end)
      throw new Error(`operation ${id} not there after ${timeoutMs} ms: ${JSON.stringify(res.json)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The account's webhook signing secret, read by the CLI from the service's database (SQLite or PostgreSQL). */
export function webhookSecret(service: Pick<TestService, 'dataDir' | 'configFile'>, account: string): string {
  return cliSync(['webhook-secret', '--data', service.dataDir, '--config', service.configFile, '--account', account]);
}

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<LocalServer> {
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
};

/**
 * Media server on 127.0.0.1: /media/<fixture file> with its video type, /watch (an HTML "platform page"), /doc.pdf,
 * and /slow.mp4 which trickles bytes and never finishes (to hold an ingest in preprocess).
 */
export interface MediaServer extends LocalServer {
  /** /slow.mp4 requests so far, and how many are still open (a puller that stopped has closed its request). */
  slow: { requests: number; open: number };
}

export async function startMediaServer(): Promise<MediaServer> {
  const slow = { requests: 0, open: 0 };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/media/')) {
      const file = join(MEDIA_DIR, path.slice('/media/'.length).replace(/[/\\]/g, ''));
      stat(file).then(
        (info) => {
          res.writeHead(200, {
            'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream',
            'content-length': info.size,
          });
          createReadStream(file).pipe(res);
        },
        () => res.writeHead(404).end('missing'),
      );
      return;
    }
    if (path === '/watch') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Some video platform</title><video src="blob:x"></video>');
      return;
    }
    if (path === '/doc.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 not a video');
      return;
    }
    if (path === '/slow.mp4') {
      slow.requests += 1;
      slow.open += 1;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 50_000_000 });
      const timer = setInterval(() => res.write(Buffer.alloc(512)), 100);
      res.once('close', () => {
        clearInterval(timer);
        slow.open -= 1;
      });
      return;
    }
    res.writeHead(404).end();
  });
  return { ...(await listen(server, new Set())), slow };
}

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the signature verified against the account's secret (standardwebhooks). */
  verified: boolean;
  payload: unknown;
  /** Local arrival time, ms. */
  at: number;
}

/**
 * Webhook receiver verifying Standard Webhooks signatures. Paths: /ok -> 204, /fail-once/<tag> -> 500 then 204,
 * /fail -> 500 always, /flaky -> 500 while `failing` is set, /slow -> 204 after 1.5 s.
 */
export async function startWebhookReceiver(
  secret: () => string,
): Promise<LocalServer & { received: ReceivedWebhook[]; setFailing(on: boolean): void }> {
  const received: ReceivedWebhook[] = [];
  const seen = new Set<string>();
  let failing = true;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      let verified = false;
      let payload: unknown = null;
      try {
        payload = new Webhook(secret()).verify(body, {
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        });
        verified = true;
      } catch {
        verified = false;
      }
      received.push({ path, headers: req.headers, body, verified, payload, at: Date.now() });
      let status = 204;
      if (path === '/fail' || (path === '/flaky' && failing)) status = 500;
      if (path.startsWith('/fail-once/') && !seen.has(path)) {
        seen.add(path);
        status = 500;
      }
      if (path === '/slow') setTimeout(() => res.writeHead(status).end(), 1500);
      else res.writeHead(status).end();
    });
  });
  const base = await listen(server, new Set());
  return { ...base, received, setFailing: (on) => void (failing = on) };
}
