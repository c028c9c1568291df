import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/media';
import { datalakeClient, startMediaServer, waitForOperation, type LocalServer } from '../helpers/datalake';
import { describeInLoopbackNamespace } from '../helpers/netns';
import { cliSync, spawnServe } from '../helpers/service';
import { tempDir } from '../helpers/temp';

const WARNING = /reelsync-service: warning: listening on 0\.0\.0\.0 with network\.allowPrivateTargets true/;

/** `serve --host 0.0.0.0` with this config: inside the namespace, "every interface" is loopback alone. */
async function serveExposed(
  config: object,
): Promise<{ origin: string; key: string; stderr(): string; stop(): Promise<void> }> {
  const { dir, cleanup } = await tempDir('reelsync-exposed-');
  const configFile = join(dir, 'config.json');
  await writeFile(configFile, JSON.stringify({ indexer: { paused: true }, ...config }));
  const dataDir = join(dir, 'data');
  const key = cliSync([
    'key',
    'create',
    '--data',
    dataDir,
    '--account',
    'test',
    '--interface',
    'datalake',
    '--credits',
    '100',
  ]);
  const served = await spawnServe(dataDir, 0, configFile, '0.0.0.0');
  return {
    origin: served.origin,
    key,
    stderr: () => served.stderr(),
    stop: async () => {
      if (served.child.exitCode === null) {
        served.child.kill('SIGTERM');
        await new Promise((r) => served.child.once('exit', r));
      }
      await cleanup();
    },
  };
}

/** A source_url on 127.0.0.1: its operation's error, or null once preprocess finished (the fetch went through). */
async function fetchLoopbackSource(origin: string, key: string, media: LocalServer): Promise<string | null> {
  const dl = datalakeClient(origin, key);
  const collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'exposed' })).json.collection_id;
  const op = (
    await dl.post<{ operation: string }>('/videos', {
      collection_id: collection,
      source_url: `${media.url}/media/${FIXTURES.hevcMov.file}`,
    })
  ).json.operation;
  const settled = await waitForOperation(dl, op, 30_000, (o) => o.progress.preprocess === 'done' || o.done);
  return settled.error?.message ?? null;
}

describeInLoopbackNamespace(
  'a service listening beyond loopback (loopback-only network namespace)',
  import.meta.filename,
  [],
  () => {
    let media: LocalServer;
    beforeAll(async () => {
      media = await startMediaServer();
    });
    afterAll(async () => {
      await media?.close();
    });

    describe('serve --host 0.0.0.0', () => {
      it('defaults network.allowPrivateTargets to false: a loopback source_url is refused, and nothing is to warn about', async () => {
        const service = await serveExposed({});
        try {
          expect(await fetchLoopbackSource(service.origin, service.key, media)).toMatch(
            /refused to connect to 127\.0\.0\.1.*allowPrivateTargets/,
          );
          expect(service.stderr()).not.toMatch(/reelsync-service: warning/);
        } finally {
          await service.stop();
        }
      }, 60_000);

      it('keeps an explicit true, and warns on stderr at start', async () => {
        const service = await serveExposed({ network: { allowPrivateTargets: true } });
        try {
          expect(service.stderr()).toMatch(WARNING);
          expect(await fetchLoopbackSource(service.origin, service.key, media)).toBeNull();
        } finally {
          await service.stop();
        }
      }, 60_000);
    });
  },
);
