import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startModelHub, type ModelHub } from '../../../test/helpers/model-hub';
import { tempDir } from '../../../test/helpers/temp';
import { tinyClipFiles } from '../../../test/helpers/tiny-clip/tiny-clip';
import { ModelCache } from './model-cache';
import { downloadModel } from './model-download';
import { semanticConfigSchema } from './semantic-config';

const REPO = 'tests/tiny-clip';

/**
 * Issue 30 item 4: the downloader against the Hub's real answers. Small files answer HEAD with a 307 to a relative
 * resolve-cache address; LFS files answer 302 to a signed address on another host whose own ETag is a different 64-hex
 * value; `main` can move while a download runs; machines behind a proxy reach the Hub through HTTPS_PROXY.
 */
describe('model download against the Hub as it answers', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let hub: ModelHub;
  const files = tinyClipFiles();
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-hub-'));
    hub = await startModelHub(REPO, files);
  });
  afterEach(async () => {
    await hub.close();
    await cleanup();
  });
  const config = () => semanticConfigSchema.parse({ host: hub.url, model: REPO });
  const download = (cache: ModelCache) => downloadModel(config(), cache, () => {}, new AbortController().signal);

  it('takes sizes and checksums from the configured host alone and never probes the CDN', async () => {
    const cache = new ModelCache(join(dir, 'data'));
    const marker = await download(cache);
    for (const [name, data] of files)
      expect(Buffer.compare(await readFile(cache.filePath(config(), name)), Buffer.from(data))).toBe(0);
    expect(marker.sizeBytes).toBe([...files.values()].reduce((n, d) => n + d.length, 0));
    // HEADs stay on the host (a CDN's ETag is no checksum of ours); only GETs go to the signed addresses.
    expect(hub.requests.filter((r) => r.method === 'HEAD' && r.path.startsWith('/cdn/'))).toEqual([]);
    expect(hub.requests.some((r) => r.method === 'GET' && r.path.startsWith('/cdn/'))).toBe(true);
    expect(hub.requests.some((r) => r.path.startsWith('/api/resolve-cache/'))).toBe(true);
  });

  it('pins every file to the commit of the first answer while main moves', async () => {
    const pinned = hub.commit;
    const moved = new Map([...files].map(([name, data]) => [name, new Uint8Array([...data, 1, 2, 3])]));
    hub.faults.moveMainAfter = { requests: 1, changed: moved };
    const cache = new ModelCache(join(dir, 'data'));
    await download(cache);
    expect(hub.commit).not.toBe(pinned);
    for (const [name, data] of files)
      expect(Buffer.compare(await readFile(cache.filePath(config(), name)), Buffer.from(data))).toBe(0);
    const resolves = hub.requests.filter((r) => r.path.includes('/resolve/')).map((r) => r.path);
    expect(resolves[0]).toContain('/resolve/main/');
    expect(resolves.slice(1).every((p) => p.includes(`/resolve/${pinned}/`))).toBe(true);
  });

  it('goes through the proxy HTTP_PROXY names, and straight to the hosts NO_PROXY lists', async () => {
    // A forward proxy as corporate networks run them: it tunnels each connection (CONNECT) and counts them.
    const proxied: string[] = [];
    const proxy: Server = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
      proxied.push(`CONNECT ${req.url ?? ''}`);
      const [host = '', port = ''] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    try {
      process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      delete process.env.NO_PROXY;
      await download(new ModelCache(join(dir, 'through-proxy')));
      // Both hosts, the Hub and its CDN, were reached through the proxy.
      expect(proxied).toContain(`CONNECT ${new URL(hub.url).host}`);
      expect(new Set(proxied).size).toBe(2);

      proxied.length = 0;
      process.env.NO_PROXY = '127.0.0.1';
      await download(new ModelCache(join(dir, 'straight')));
      expect(proxied).toEqual([]);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });
});
