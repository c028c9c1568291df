import { createServer } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempClientDb } from '../../../test/helpers/temp-db';
import { AppError } from '../../shared/errors';
import { LibraryClient } from '../api/client';
import { createLogger } from '../log';
import { SyncStore } from '../store/sync-store';
import { removeFromLibrary } from './remove-from-library';

const temp = useTempClientDb();
let store: SyncStore;
const logger = createLogger('test');
beforeEach(() => {
  store = new SyncStore(temp.db);
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function linkedFile(name: string, state: 'indexed' | 'indexing'): number {
  const w = store.addWatchFolder({
    path: '/footage',
    folderId: null,
    folderName: null,
    tags: [],
    ignore: [],
    polling: 'auto',
  });
  const { id } = store.recordFile(w.id, `/footage/${name}`, 100, 1, 1);
  store.setFileHash(id, `hash-${name}`, 100, 1);
  store.setFileState(id, 'linked', null);
  store.createContent({ hash: `hash-${name}`, size: 100, folderId: null, tags: [], meta: {} });
  store.setContentVideo(`hash-${name}`, `v-${name}`, false);
  store.setContentState(`hash-${name}`, state);
  return id;
}

const failure = async (p: Promise<unknown>): Promise<{ code: string; message: string }> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return { code: err.code, message: err.message };
};

describe('remove from library: the refusals, and nothing changes when the service cannot be reached', () => {
  it('answers offline in plain words over a real refused connection, and keeps the file tracked and linked', async () => {
    const id = linkedFile('a.mp4', 'indexed');
    const client = new LibraryClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}/serve/api/v1`,
      key: 'k',
      logger,
      timeoutMs: 5_000,
    });
    try {
      const f = await failure(removeFromLibrary({ db: temp.db, client, logger }, id));
      expect(f.code).toBe('offline');
      expect(f.message).toContain('nothing was removed');
      expect(f.message).not.toMatch(/ECONNREFUSED/);
    } finally {
      await client.close();
    }
    expect(store.file(id)?.state).toBe('linked');
    expect(store.content('hash-a.mp4')?.video_no).toBe('v-a.mp4');
    expect((await failure(removeFromLibrary({ db: temp.db, client: undefined, logger }, id))).code).toBe('offline');
  });

  it('refuses a file not in the library, a video still indexing, and an unknown file', async () => {
    const w = store.addWatchFolder({
      path: '/other',
      folderId: null,
      folderName: null,
      tags: [],
      ignore: [],
      polling: 'auto',
    });
    const pending = store.recordFile(w.id, '/other/p.mp4', 1, 1, 1).id;
    expect((await failure(removeFromLibrary({ db: temp.db, client: undefined, logger }, pending))).code).toBe(
      'conflict',
    );
    const indexing = linkedFile('b.mp4', 'indexing');
    expect((await failure(removeFromLibrary({ db: temp.db, client: undefined, logger }, indexing))).message).toContain(
      'still being uploaded or indexed',
    );
    expect((await failure(removeFromLibrary({ db: temp.db, client: undefined, logger }, 999))).code).toBe('not_found');
  });
});
