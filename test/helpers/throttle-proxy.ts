import { createServer, connect, type Socket } from 'node:net';
import { Transform } from 'node:stream';

export interface ThrottleProxy {
  /** http://127.0.0.1:PORT, to use in place of the target's endpoint. */
  endpoint: string;
  /** Bytes let through towards the target so far. */
  readonly bytesIn: number;
  stop(): Promise<void>;
}

/**
 * A TCP proxy in front of `target` (http://host:port) that lets requests through at `bytesPerSecond` in all (every
 * connection shares the rate, as they share a real store's link); answers come back unthrottled. A store slowed to a
 * realistic rate, where s3rver on loopback takes bytes as fast as the disk does.
 */
export async function startThrottleProxy(target: string, bytesPerSecond: number): Promise<ThrottleProxy> {
  const { hostname, port } = new URL(target);
  let nextFreeMs = 0;
  let bytesIn = 0;
  const sockets = new Set<Socket>();
  const throttle = (): Transform =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        const now = performance.now();
        const start = Math.max(now, nextFreeMs);
        nextFreeMs = start + (chunk.length / bytesPerSecond) * 1000;
        const wait = nextFreeMs - now;
        const pass = (): void => {
          bytesIn += chunk.length;
          done(null, chunk);
        };
        if (wait < 1) pass();
        else setTimeout(pass, wait);
      },
    });
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(throttle()).pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('throttle proxy has no port');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    get bytesIn() {
      return bytesIn;
    },
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
