import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startModelHub, type ModelHub } from '../../../test/helpers/model-hub';
import { SERVICE_SQL_ENGINES, useSharedDatabase } from '../../../test/helpers/service-sql';
import { tempDir } from '../../../test/helpers/temp';
import { tinyClipFiles } from '../../../test/helpers/tiny-clip/tiny-clip';
import { LocalBlobStore } from '../storage/local-blob-store';
import type { Sql } from '../storage/sql';
import { ModelCache } from './model-cache';
import { ModelRequests } from './model-requests';
import { semanticConfigSchema, type SemanticConfig } from './semantic-config';
import { SemanticSlot } from './semantic-slot';
import { MODELS_BUCKET, SharedModelStore } from './shared-model-store';
import { TeamModelFetch } from './team-model-fetch';

/**
 * A model asked for on a team server is fetched from its host by the one process holding the fetch lease, published in
 * the team's blob store, and copied from there by the others: here several "processes" (each its own connection and
 * cache) on one database and one blob store, against a model host on 127.0.0.1.
 */

const REPO = 'tests/tiny-clip';
const log = pino({ level: 'silent' });
/** The tiny model's 23.5 KB in 512-byte chunks 20 ms apart. */
const ABOUT_A_SECOND = { chunk: 512, delayMs: 20 };

describe.each(SERVICE_SQL_ENGINES)('the model fetched once per team on %s', (engine) => {
  const database = useSharedDatabase(engine);
  let dir: string;
  let cleanup: () => Promise<void>;
  let hub: ModelHub;
  let config: SemanticConfig;
  let blobs: LocalBlobStore;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-team-fetch-'));
    hub = await startModelHub(REPO, tinyClipFiles());
    config = semanticConfigSchema.parse({ host: hub.url, model: REPO });
    blobs = new LocalBlobStore(join(dir, 'shared-blobs'));
  });
  afterEach(async () => {
    await hub.close();
    await cleanup();
  });

  /** One process: its own connection, its own data folder's cache, the shared blob store. */
  async function process(name: string, leaseMs?: number) {
    const sql: Sql = await database().connect();
    const requests = new ModelRequests(sql);
    const cache = new ModelCache(join(dir, name));
    const fetcher = new TeamModelFetch(requests, new SharedModelStore(blobs), name, log, leaseMs);
    const acquire = () => fetcher.acquire(config, cache, () => undefined, new AbortController().signal);
    return { sql, requests, cache, acquire };
  }

  /** GETs the host answered for model files (the resolve address or its CDN). */
  const fileGets = () => hub.requests.filter((r) => r.method === 'GET').length;

  it('one of several processes asking at once fetches it from the host; the others copy it from the team store', async () => {
    const procs = await Promise.all(['api-1', 'worker-1', 'worker-2'].map((n) => process(n)));
    // Slow enough (about a second) that the others look while the first one fetches.
    hub.faults.slow = ABOUT_A_SECOND;
    const first = await Promise.all(procs.map((p) => p.acquire()));
    expect(first.map((o) => o.kind).sort()).toEqual(['ready', 'waiting', 'waiting']);
    const fetchedBy = procs[first.findIndex((o) => o.kind === 'ready')]!;
    const getsFromHost = fileGets();
    expect(getsFromHost).toBeGreaterThanOrEqual(tinyClipFiles().size);

    const later = await Promise.all(procs.filter((p) => p !== fetchedBy).map((p) => p.acquire()));
    expect(later.map((o) => (o.kind === 'ready' ? o.from : o.kind))).toEqual(['team store', 'team store']);
    // The host served the model once: the copies came from the store, byte for byte.
    expect(fileGets()).toBe(getsFromHost);
    for (const p of procs) {
      expect((await p.cache.complete(config))?.files.map((f) => f.name).sort()).toEqual(
        [...tinyClipFiles().keys()].sort(),
      );
      for (const [name, data] of tinyClipFiles())
        expect(Buffer.compare(await readFile(p.cache.filePath(config, name)), Buffer.from(data))).toBe(0);
    }
    // The lease was given back.
    expect(await procs[0]!.requests.fetchLease(config)).toBeNull();
  });

  it("shows the holder's bytes to the waiting processes while it fetches", async () => {
    const [holder, waiter] = [await process('api-1', 300), await process('worker-1', 300)];
    // About a second of fetching, three renewals a second.
    hub.faults.slow = ABOUT_A_SECOND;
    const fetching = holder.acquire();
    await sleep(50);
    expect((await waiter.acquire()).kind).toBe('waiting');
    await expect
      .poll(async () => (await waiter.requests.fetchLease(config))?.fetchedBytes ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const lease = await waiter.requests.fetchLease(config);
    expect(lease).toMatchObject({
      by: 'api-1',
      totalBytes: [...tinyClipFiles().values()].reduce((n, d) => n + d.length, 0),
    });
    expect((await fetching).kind).toBe('ready');
  });

  it('takes the fetch over once the lease of a process that died lapses', async () => {
    const waiter = await process('worker-1');
    // A process that took the lease, then died: it renews no more.
    expect(await waiter.requests.claimFetch(config, 'dead-api', Date.now() + 300)).toBe(true);
    expect((await waiter.acquire()).kind).toBe('waiting');
    expect(fileGets()).toBe(0);
    await sleep(400);
    const outcome = await waiter.acquire();
    expect(outcome.kind === 'ready' && outcome.from).toBe('host');
    expect(await blobs.size(MODELS_BUCKET, `${REPO}/${config.revision}/${config.dtype}/manifest.json`)).toBeGreaterThan(
      0,
    );
  });

  it('keeps the model it fetched when the team store refuses it, and the next process fetches its own', async () => {
    // The models bucket's place in the store is taken by a file: every write there fails.
    await mkdir(join(dir, 'shared-blobs'));
    await writeFile(join(dir, 'shared-blobs', MODELS_BUCKET), 'not a folder');
    const first = await process('api-1');
    const outcome = await first.acquire();
    expect(outcome.kind === 'ready' && outcome.from).toBe('host');
    expect(await first.cache.complete(config)).not.toBeNull();
    expect(await first.requests.fetchLease(config)).toBeNull();
    const next = await (await process('worker-1')).acquire();
    expect(next.kind === 'ready' && next.from).toBe('host');
  });

  it("fetches from the host when the team store's copy fails its check", async () => {
    const publisher = await process('api-1');
    expect((await publisher.acquire()).kind).toBe('ready');
    const gets = fileGets();
    // A file of the store's copy changed after it was published (same size, other bytes).
    const name = [...tinyClipFiles().keys()].find((n) => n.endsWith('.onnx'))!;
    const stored = join(dir, 'shared-blobs', MODELS_BUCKET, REPO, config.revision, config.dtype, name);
    const bytes = await readFile(stored);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    await writeFile(stored, bytes);

    const other = await process('worker-1');
    const outcome = await other.acquire();
    expect(outcome.kind === 'ready' && outcome.from).toBe('host');
    expect(fileGets()).toBeGreaterThan(gets);
    expect(
      Buffer.compare(await readFile(other.cache.filePath(config, name)), Buffer.from(tinyClipFiles().get(name)!)),
    ).toBe(0);
  });

  it('a process whose own fetch failed takes the model once another published it', async () => {
    // This process reaches a host without the model (a 404: no retry), the other the real one.
    const nowhere = await startModelHub('tests/elsewhere', new Map());
    const slots: SemanticSlot[] = [];
    const slot = async (name: string, host: string) => {
      const s = new SemanticSlot({
        dataDir: join(dir, name),
        config: semanticConfigSchema.parse({ host, model: REPO, pollMs: 100 }),
        sql: await database().connect(),
        blobs,
        log,
        embedsKeyframes: false,
        sharedDatabase: true,
      });
      slots.push(s);
      await s.start();
      return s;
    };
    try {
      const cutOff = await slot('api-1', nowhere.url);
      await cutOff.startDownload();
      await expect.poll(async () => (await cutOff.state()).state, { timeout: 10_000 }).toBe('failed');
      // The other process learns of the ask at its start and fetches the model from the host.
      const online = await slot('worker-1', hub.url);
      await expect.poll(async () => (await online.state()).state, { timeout: 10_000 }).toBe('ready');
      await expect.poll(async () => (await cutOff.state()).state, { timeout: 10_000 }).toBe('ready');
      expect(nowhere.requests.filter((r) => r.method === 'GET').length).toBe(0);
      expect((await cutOff.cache.complete(config))?.host).toBe(hub.url);
    } finally {
      for (const s of slots) await s.stop();
      await nowhere.close();
    }
  });
});
