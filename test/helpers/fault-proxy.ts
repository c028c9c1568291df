import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const FAULT_KINDS = ['reset', 'stall', 'slow', 'error5xx', 'rateLimit', 'truncate'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultProxyOptions {
  /** Origin of the real service, e.g. http://127.0.0.1:PORT */
  target: string;
  /** Probability per request of each fault (their sum must be < 1); the rest pass through untouched. */
  rates: Partial<Record<FaultKind, number>>;
  /** Seed of the fault sequence, so a failing run can be replayed. */
  seed?: number;
  /** A stalled connection is held this long without a byte, then dropped (what the client's timeout would do). */
  stallMs?: number;
  /** A slow response starts this late and trickles its body in 16 KiB pieces this far apart. */
  slowMs?: number;
  retryAfterSeconds?: number;
  /** Only requests whose path (without the query) matches are faulted; all by default. */
  targets?: RegExp;
  /** The first faulted requests take each kind with a rate once, in turn (so a short run sees every kind), then random. */
  everyKindFirst?: boolean;
}

export interface FaultProxy {
  origin: string;
  /** Faults injected per kind, and requests passed untouched. */
  counts: Record<FaultKind | 'passed', number>;
  /** Requests seen per path (without the query), for retry counts. */
  byPath: Map<string, number>;
  /** Faults on or off (off: a plain relay), e.g. to read the final state. */
  enabled: boolean;
  close(): Promise<void>;
}

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An HTTP proxy on 127.0.0.1 that injects faults at set rates: connection resets (before the answer, or in the
 * middle of an upload body), stalls (no byte for stallMs, then dropped), slow answers, 502/503 from a "gateway",
 * 429 with Retry-After, and truncated answers (relayed from the real service, so the request took effect, then cut).
 */
export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(opts.target);
  const random = prng(opts.seed ?? 1);
  const stallMs = opts.stallMs ?? 2_000;
  const slowMs = opts.slowMs ?? 40;
  const sockets = new Set<Socket>();
  const proxy: FaultProxy = {
    origin: '',
    counts: { reset: 0, stall: 0, slow: 0, error5xx: 0, rateLimit: 0, truncate: 0, passed: 0 },
    byPath: new Map(),
    enabled: true,
    close: async () => {},
  };
  // Spaced out: one forced fault every 4th targeted request until each kind has happened once.
  const upfront: (FaultKind | null)[] = opts.everyKindFirst
    ? FAULT_KINDS.filter((k) => (opts.rates[k] ?? 0) > 0).flatMap((k) => [k, null, null, null])
    : [];
  const pick = (path: string): FaultKind | null => {
    if (!proxy.enabled || (opts.targets && !opts.targets.test(path))) return null;
    if (upfront.length > 0) return upfront.shift() ?? null;
    let r = random();
    for (const kind of FAULT_KINDS) {
      const rate = opts.rates[kind] ?? 0;
      if (r < rate) return kind;
      r -= rate;
    }
    return null;
  };

  const relay = (req: IncomingMessage, res: ServerResponse, mode: 'pass' | 'slow' | 'truncate' | 'reset'): void => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        const length = Number(up.headers['content-length'] ?? NaN);
        // Truncate: pass the headers and at most half of the body (at least one byte short), then drop the connection.
        const budget =
          mode === 'truncate' ? Math.floor((Number.isFinite(length) ? length : 2048) * random() * 0.5) : Infinity;
        res.writeHead(up.statusCode ?? 502, up.headers);
        if (mode === 'truncate' && budget === 0) {
          up.destroy();
          res.socket?.destroy();
          return;
        }
        let sent = 0;
        up.on('data', (chunk: Buffer) => {
          if (sent + chunk.length >= budget) {
            res.write(chunk.subarray(0, Math.max(0, budget - sent)));
            up.destroy();
            res.socket?.destroy();
            return;
          }
          sent += chunk.length;
          if (mode !== 'slow') {
            if (!res.write(chunk)) {
              up.pause();
              res.once('drain', () => up.resume());
            }
            return;
          }
          up.pause();
          let offset = 0;
          const step = (): void => {
            if (res.destroyed) return;
            res.write(chunk.subarray(offset, offset + 16_384));
            offset += 16_384;
            if (offset < chunk.length) setTimeout(step, slowMs);
            else up.resume();
          };
          setTimeout(step, slowMs);
        });
        up.on('end', () => {
          if (!res.destroyed) res.end();
        });
        up.on('error', () => res.socket?.destroy());
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (mode !== 'reset') {
      req.pipe(upstream);
      return;
    }
    // Reset: relay a random share of the request body (for an upload: the service sees a body broken off), then drop.
    const declared = Number(req.headers['content-length'] ?? 0);
    const cut = Math.floor(declared * random());
    let passed = 0;
    if (cut === 0) {
      upstream.destroy();
      req.socket.destroy();
      return;
    }
    req.on('data', (chunk: Buffer) => {
      if (passed + chunk.length >= cut) {
        upstream.write(chunk.subarray(0, cut - passed));
        upstream.destroy();
        req.socket.destroy();
        return;
      }
      passed += chunk.length;
      upstream.write(chunk);
    });
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    proxy.byPath.set(path, (proxy.byPath.get(path) ?? 0) + 1);
    const fault = pick(path);
    proxy.counts[fault ?? 'passed'] += 1;
    switch (fault) {
      case null:
        return relay(req, res, 'pass');
      case 'reset':
      case 'truncate':
        return relay(req, res, fault);
      case 'slow':
        setTimeout(() => relay(req, res, 'slow'), slowMs * 10);
        return;
      case 'stall':
        req.resume();
        setTimeout(() => req.socket.destroy(), stallMs);
        return;
      case 'error5xx':
        req.resume();
        res
          .writeHead(random() < 0.5 ? 502 : 503, { 'content-type': 'text/html', connection: 'close' })
          .end('<html><body>Bad gateway</body></html>');
        return;
      case 'rateLimit':
        req.resume();
        res
          .writeHead(429, {
            'content-type': 'application/json',
            'retry-after': String(opts.retryAfterSeconds ?? 1),
            connection: 'close',
          })
          .end(
            JSON.stringify({
              code: '0429',
              msg: 'Request has exceeded the limit.',
              data: null,
              success: false,
              failed: true,
            }),
          );
        return;
      default: {
        const never: never = fault;
        throw new Error(`unknown fault ${String(never)}`);
      }
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return proxy;
}
