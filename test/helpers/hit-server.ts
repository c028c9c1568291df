import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface HitServer {
  url: string;
  /** Request paths (with query) in arrival order. */
  hits: string[];
  close(): Promise<void>;
}

/**
 * A plain server on host:port counting its hits. /to?u=URL answers a 302 to URL; a path in `routes` answers that body
 * with that type; anything else 200 "reached".
 */
export async function startHitServer(
  host: string,
  port = 0,
  routes: Record<string, { type: string; body: () => string }> = {},
): Promise<HitServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('u');
    const route = routes[url.pathname];
    if (to) res.writeHead(302, { location: to }).end();
    else if (route) res.writeHead(200, { 'content-type': route.type }).end(route.body());
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(port, host, () => r()));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${bound}`,
    hits,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
