import type { BrowserWindow, Dialog } from 'electron';
import type { DestinationChooser } from '../library/destinations/policy';

type Dialogs = Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;

/**
 * Electron's native dialogs as the destination chooser: main runs them (the renderer only asks), so every path a
 * channel writes outside the allowed roots is one the user picked by hand. The save dialog asks before replacing.
 */
export function nativeChooser(dialog: Dialogs, window: () => BrowserWindow | null): DestinationChooser {
  return {
    saveFile: async ({ title, defaultPath, extension }) => {
      const options = {
        title,
        defaultPath,
        filters: extension ? [{ name: extension.toUpperCase(), extensions: [extension] }] : [],
        properties: ['createDirectory', 'showOverwriteConfirmation'] as (
          'createDirectory' | 'showOverwriteConfirmation'
        )[],
      };
      const win = window();
      const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    chooseFolder: async ({ title, defaultPath }) => {
      const options = {
        title,
        defaultPath,
        properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
      };
      const win = window();
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
  };
}
