import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request, type Dispatcher } from 'undici';
import { guardedAgent, TargetRefusedError } from './ssrf';

const MAX_REDIRECTS = 5;
const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024;
const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);
const PLAYLIST_TYPES = new Set([
  'application/vnd.apple.mpegurl',
  'application/x-mpegurl',
  'audio/mpegurl',
  'audio/x-mpegurl',
]);
/** Upstream answer headers ffmpeg may use (ranges for seekable files); everything else stays behind. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'] as const;

/** The relay refused a target ffmpeg asked for: not http(s), or an address network.allowPrivateTargets forbids. */
export class RelayRefusal extends Error {
  readonly code = 'ERR_TARGET_REFUSED';
}

export interface PullRelay {
  /** What ffmpeg reads instead of the source: http://127.0.0.1:PORT/<signature>/<url>/<name>. */
  url: string;
  /** The first refused target of this pull, if any: the reason it failed. */
  refusal(): Error | null;
  /** The latest upstream problem that was not a refusal (unreachable, HTTP 404...), to explain ffmpeg's failure. */
  lastProblem(): string | null;
  close(): Promise<void>;
}

export interface PullRelayOptions {
  allowPrivateTargets: boolean;
  /** Called once, on the first refusal: the pull should end (a playlist that points inside is an attack, not a glitch). */
  onRefused?: (err: Error) => void;
}

/**
 * A loopback HTTP relay for one live pull, so ffmpeg never resolves or connects to a URL a user gave. ffmpeg reads
 * only from here (-protocol_whitelist http,tcp,crypto; crypto only wraps an http segment); the relay fetches each
 * playlist and segment itself through the guarded, address-pinned connector, follows redirects itself (each hop
 * checked again, at most 5), and rewrites every URI of an HLS playlist (segment lines and URI="..." attributes) into a
 * relay path. A relay path carries the absolute upstream URL and an HMAC under a key only this relay knows, so it
 * serves exactly the source and what that source's playlists named, to nobody else.
 */
export async function startPullRelay(source: string, opts: PullRelayOptions): Promise<PullRelay> {
  const first = new URL(source).href; // WHATWG parsing, the same the fetch uses: `a\@b` is host a, path /@b
  const key = randomBytes(32);
  const agent: Dispatcher = guardedAgent({
    allowPrivateTargets: opts.allowPrivateTargets,
    maxRedirections: 0,
    connectTimeoutMs: 15_000,
    headersTimeoutMs: 30_000,
    bodyTimeoutMs: 60_000,
  });
  let refused: Error | null = null;
  const refuse = (err: Error): void => {
    if (refused) return;
    refused = err;
    opts.onRefused?.(err);
  };
  let problem: string | null = null;
  let origin = '';
  const signature = (url: string): Buffer => createHmac('sha256', key).update(url).digest().subarray(0, 18);
  const pathFor = (url: string): string =>
    `/${signature(url).toString('base64url')}/${Buffer.from(url).toString('base64url')}/${fileName(url)}`;
  const relayUrl = (url: string): string => `${origin}${pathFor(url)}`;

  /** The upstream URL a request path stands for, if this relay issued that path. */
  const issued = (path: string): string | null => {
    const [, sig = '', enc = ''] = path.split('/');
    const url = Buffer.from(enc, 'base64url').toString('utf8');
    const given = Buffer.from(sig, 'base64url');
    const expected = signature(url);
    return given.length === expected.length && timingSafeEqual(given, expected) && pathFor(url) === path ? url : null;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.method === 'GET' ? issued((req.url ?? '/').split('?')[0] ?? '/') : null;
    if (target === null) {
      res.writeHead(404).end();
      return;
    }
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    try {
      const { upstream, finalUrl } = await fetchFollowing(target, agent, req.headers.range, abort.signal);
      if (upstream.statusCode < 200 || upstream.statusCode >= 300) {
        await upstream.body.dump().catch(() => {});
        problem = `${finalUrl} answered HTTP ${upstream.statusCode}`;
        res.writeHead(upstream.statusCode < 400 ? 502 : upstream.statusCode).end();
        return;
      }
      const body = upstream.body[Symbol.asyncIterator]();
      const head = await readHead(body);
      const type = header(upstream.headers, 'content-type');
      if (isPlaylist(type, head)) {
        const text = Buffer.concat([head, ...(await readAll(body, MAX_PLAYLIST_BYTES - head.length))]).toString('utf8');
        const rewritten = rewritePlaylist(text, finalUrl, relayUrl);
        res
          .writeHead(200, { 'content-type': type ?? 'application/vnd.apple.mpegurl', 'cache-control': 'no-cache' })
          .end(rewritten);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const value = header(upstream.headers, name);
        if (value !== undefined) headers[name] = value;
      }
      res.writeHead(upstream.statusCode, headers);
      await pipeline(Readable.from(prepend(head, body)), res);
    } catch (err) {
      const refusal = refusalOf(err);
      if (refusal) {
        refuse(refusal);
        if (!res.headersSent) res.writeHead(403).end();
        return;
      }
      if (abort.signal.aborted) return; // ffmpeg hung up
      problem = `could not read ${target}: ${err instanceof Error ? err.message : String(err)}`;
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    }
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void serve(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: relayUrl(first),
    refusal: () => refused,
    lastProblem: () => problem,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await agent.destroy(); // not close(): that would wait for an endless upstream body nobody reads any more
    },
  };
}

/** GET through the guarded agent, following redirects here (never in ffmpeg): each hop's address is checked on connect. */
async function fetchFollowing(
  url: string,
  agent: Dispatcher,
  range: string | undefined,
  signal: AbortSignal,
): Promise<{ upstream: Dispatcher.ResponseData; finalUrl: string }> {
  let current = url;
  for (let hop = 0; ; hop += 1) {
    const parsed = URL.canParse(current) ? new URL(current) : null;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      throw new RelayRefusal(`refused to fetch ${current}: live sources are read over http and https only`);
    const upstream = await request(parsed.href, {
      method: 'GET',
      dispatcher: agent,
      signal,
      headers: { 'user-agent': 'Reelsync-Datalake/1', ...(range ? { range } : {}) },
    });
    const location = header(upstream.headers, 'location');
    if (!REDIRECT_CODES.has(upstream.statusCode) || location === undefined) return { upstream, finalUrl: parsed.href };
    await upstream.body.dump().catch(() => {});
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects from ${url}`);
    current = URL.canParse(location, parsed.href) ? new URL(location, parsed).href : location;
  }
}

/**
 * Every URI of an HLS playlist, made absolute against the URL it came from and turned into a relay URL: the lines that
 * are not tags (segments, variant playlists) and the URI="..." attribute of any tag (keys, init sections, renditions).
 */
export function rewritePlaylist(text: string, base: string, relayUrl: (absolute: string) => string): string {
  const absolute = (ref: string): string => (URL.canParse(ref, base) ? new URL(ref, base).href : ref);
  return text
    .split(/\r?\n/)
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === '') return line;
      if (trimmed.startsWith('#'))
        return line.replace(/URI="([^"]*)"/g, (_m, ref: string) => `URI="${relayUrl(absolute(ref))}"`);
      return relayUrl(absolute(trimmed));
    })
    .join('\n');
}

/** The refusal behind an error (the connector's TargetRefusedError may come back as the cause of undici's error). */
function refusalOf(err: unknown): Error | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth += 1) {
    if (e instanceof TargetRefusedError || e instanceof RelayRefusal) return e;
  }
  return null;
}

function isPlaylist(type: string | undefined, head: Buffer): boolean {
  const mime = type?.split(';')[0]?.trim().toLowerCase() ?? '';
  // By content too: a playlist served as text/plain would otherwise reach ffmpeg with its URIs unrewritten.
  return PLAYLIST_TYPES.has(mime) || /^(\uFEFF)?\s*#EXTM3U/.test(head.toString('utf8'));
}

/** A safe last path segment for the relay path (ffmpeg may look at the extension). */
function fileName(url: string): string {
  const last = (URL.canParse(url) ? new URL(url).pathname : '').split('/').pop() ?? '';
  const clean = last.replace(/[^A-Za-z0-9._-]/g, '').slice(-64);
  return clean || 'source';
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** At least 16 bytes (or the whole body if shorter): enough to tell a playlist from media. */
async function readHead(body: AsyncIterator<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < 16) {
    const next = await body.next();
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.length;
  }
  return Buffer.concat(chunks);
}

async function readAll(body: AsyncIterator<Buffer>, maxBytes: number): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (let next = await body.next(); !next.done; next = await body.next()) {
    size += next.value.length;
    if (size > maxBytes) throw new Error(`playlist larger than ${MAX_PLAYLIST_BYTES} bytes`);
    chunks.push(next.value);
  }
  return chunks;
}

async function* prepend(head: Buffer, body: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  for (let next = await body.next(); !next.done; next = await body.next()) yield next.value;
}
