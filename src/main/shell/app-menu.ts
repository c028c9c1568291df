import { app, dialog, Menu, shell, type BrowserWindow, type MessageBoxOptions, type OpenDialogOptions } from 'electron';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeError } from '../../shared/errors';
import { logsDir, type Logger } from '../log';
import { APP_VERSION } from '../version';
import { appMenuTemplate } from './menu';
import { describeOutcome, updateFeed, UpdateService, type Updater } from './updates';

export interface AppMenuDeps {
  dataDir: string;
  window: () => BrowserWindow | null;
  /** Adds folders to the watched set and tells the user what came of it. */
  addPaths: (paths: string[]) => Promise<void>;
  log: Logger;
}

function message(window: BrowserWindow | null, options: MessageBoxOptions): Promise<{ response: number }> {
  return window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options);
}

/** electron-updater on the configured feed; the downloaded update is offered as a restart. */
export function createUpdates(deps: Pick<AppMenuDeps, 'window' | 'log'>): UpdateService {
  const builtIn = app.isPackaged && existsSync(join(process.resourcesPath, 'app-update.yml'));
  return new UpdateService({
    feed: updateFeed(process.env.REELSYNC_UPDATE_URL, builtIn),
    // electron-updater is CommonJS and defines autoUpdater as a getter Node's ESM import cannot see: go through default.
    load: async (): Promise<Updater> => (await import('electron-updater')).default.autoUpdater,
    currentVersion: APP_VERSION,
    onDownloaded: async (version) => {
      const answer = await message(deps.window(), {
        type: 'info',
        message: `Reelsync ${version} is ready to install`,
        detail: 'Restart now to use it, or keep working: it installs when you quit.',
        buttons: ['Restart Now', 'Later'],
        defaultId: 0,
        cancelId: 1,
      });
      return answer.response === 0;
    },
    log: deps.log.child({ module: 'updates' }),
  });
}

/** Opens a folder in the file manager; a failure (the folder cannot be opened) is shown, not swallowed. */
async function openFolder(deps: AppMenuDeps, folder: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const failure = await shell.openPath(folder);
  if (failure)
    await message(deps.window(), {
      type: 'warning',
      message: 'Could not open the folder',
      detail: `${folder}: ${failure}`,
    });
}

/** Builds the application menu (see menu.ts) and connects its items to the app. */
export function installAppMenu(deps: AppMenuDeps, updates: UpdateService): void {
  const template = appMenuTemplate({
    platform: process.platform,
    dev: !app.isPackaged,
    updatesConfigured: updates.configured,
    actions: {
      addFolder: () => {
        const win = deps.window();
        const options: OpenDialogOptions = {
          title: 'Add folders to watch',
          buttonLabel: 'Watch',
          properties: ['openDirectory', 'multiSelections', 'createDirectory'],
        };
        (win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options))
          .then((r) => (r.canceled || r.filePaths.length === 0 ? undefined : deps.addPaths(r.filePaths)))
          .catch((err: unknown) => deps.log.error({ err: describeError(err) }, 'add folder failed'));
      },
      openLogs: () => void openFolder(deps, logsDir(deps.dataDir)),
      revealData: () => void openFolder(deps, deps.dataDir),
      checkForUpdates: () => {
        void updates.check().then((outcome) => {
          const { title, detail } = describeOutcome(outcome);
          return message(deps.window(), {
            type: outcome.kind === 'failed' ? 'warning' : 'info',
            message: title,
            detail,
          });
        });
      },
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  app.setAboutPanelOptions({ applicationName: 'Reelsync', applicationVersion: APP_VERSION });
}
