import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { AppError, describeError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import type { DesktopAccess } from '../desktop/hooks';
import type { HandlerMap } from '../ipc/registry';
import { refuseSystemFolder, type DestinationChooser } from '../library';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { SyncStore } from '../store/sync-store';
import { UploadHistoryStore } from '../store/upload-history-store';
import { addPaths } from './add-paths';
import type { SyncEngine } from './engine';
import { removeFromLibrary } from './remove-from-library';

export interface SyncHandlerDeps {
  /** The running engine, or an `offline` AppError when no library service is configured. */
  engine: () => SyncEngine;
  /** The engine's client while a library service is connected. */
  client: () => LibraryClient | undefined;
  db: () => Db;
  dataDir: string;
  logger: Logger;
  /** The desktop shell's native dialogs; the web mode has none. */
  chooser: () => DestinationChooser | undefined;
  desktop: DesktopAccess;
}

/** The sync engine's channels: files and their queue, watch folders, adding footage, upload history. */
export function syncHandlers(d: SyncHandlerDeps) {
  // Watching and the first scan of a big tree take a while: they run behind the answer, the rows show up as recorded.
  const scanSoon = (engine: SyncEngine, ids: number[], what: string): void => {
    void engine
      .watch()
      .then(() => engine.scan(ids))
      .catch((err: unknown) => d.logger.error({ err: describeError(err), watchIds: ids }, `scan of ${what} failed`));
  };
  return {
    'sync:status': () => d.engine().status(),
    'sync:files': ({ page, size, ...query }) => ({ ...d.engine().files(page, size, query), page, size }),
    'sync:codecs': () => ({ codecs: d.engine().codecs() }),
    'sync:cameras': () => ({ cameras: d.engine().cameras() }),
    'uploads:history': ({ page, size }) => ({ ...new UploadHistoryStore(d.db()).page(page, size), page, size }),
    'sync:pause': ({ fileId }) => ({ paused: d.engine().pause(fileId) }),
    'sync:resume': ({ fileId }) => ({ resumed: d.engine().resume(fileId) }),
    'sync:retry': ({ fileId }) => ({ requeued: d.engine().retry(fileId) }),
    'sync:remove': ({ fileId }) => removeFromLibrary({ db: d.db(), client: d.client(), logger: d.logger }, fileId),
    'sync:cancel': ({ fileId }) => ({ cancelled: d.engine().cancel(fileId) }),
    'folders:add': async (req) => {
      const engine = d.engine();
      const folder = await engine.addFolder({ ...req, path: await refuseSystemFolder(req.path, d.dataDir) });
      scanSoon(engine, [folder.id], 'a new folder');
      return folder;
    },
    'folders:stop': async ({ id }) => ({ stopped: await d.engine().stopFolder(id) }),
    'folders:resume': ({ id }) => {
      const engine = d.engine();
      const folder = engine.resumeFolder(id);
      scanSoon(engine, [folder.id], 'a folder watched again');
      return folder;
    },
    'folders:choose': async () => {
      const chooser = d.chooser();
      if (!chooser)
        throw new AppError('bad_request', 'a browser has no folder picker: type or paste the folder’s full path');
      return { path: await chooser.chooseFolder({ title: 'Watch a folder', defaultPath: homedir() }) };
    },
    'folders:list': () => ({ folders: d.engine().folders() }),
    'sync:add-paths': async ({ paths, options }) => {
      const engine = d.engine();
      const watcher = {
        folders: () => engine.folders(),
        addFolder: async (input: Parameters<SyncEngine['addFolder']>[0]) =>
          engine.addFolder({ ...input, path: await refuseSystemFolder(input.path, d.dataDir) }),
        scanSoon: (ids: number[]) => scanSoon(engine, ids, 'added paths'),
      };
      return { results: await addPaths(paths, watcher, options) };
    },
    'files:reveal': ({ id }) => {
      const file = new SyncStore(d.db()).file(id)?.path;
      if (file === undefined) throw new AppError('not_found', `no library file ${id}`);
      if (!existsSync(file)) throw new AppError('not_found', `the file is gone from disk: ${file}`);
      return d.desktop.reveal(file);
    },
  } satisfies HandlerMap;
}
