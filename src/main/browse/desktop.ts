import { existsSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import type { HandlerRegistry } from '../ipc/registry';
import type { ClipsService } from '../library/clips-service';
import { addPaths, type Watcher } from './add-paths';

/** What only a desktop shell can do; the Electron shell installs these, the web mode has none. */
export interface DesktopHooks {
  /** An OS drag of a file out of the window (webContents.startDrag). */
  startDrag(file: string, icon: string | null): void;
  /** Shows the file in the system file manager. */
  reveal(file: string): void;
}

const NO_DESKTOP = 'a browser cannot hand a file to the operating system: use the path shown, or run the desktop app';

/** sync:add-paths, clips:drag-out and clips:reveal. */
export function registerDesktopHandlers(r: HandlerRegistry, d: { watcher: () => Watcher; clips: () => ClipsService; hooks: () => DesktopHooks | undefined }): void {
  r.handle('sync:add-paths', async ({ paths }) => ({ results: await addPaths(paths, d.watcher()) }));

  const clipFile = (id: number): { file: string; thumb: string | null } => {
    const clip = d.clips().get(id);
    if (clip.state !== 'ready' || !clip.path) throw new AppError('conflict', `clip ${id} is ${clip.state}: there is no file yet`);
    if (!existsSync(clip.path)) throw new AppError('not_found', `the clip file is gone: ${clip.path}`);
    return { file: clip.path, thumb: clip.thumbnail_path };
  };

  r.handle('clips:drag-out', ({ id }) => {
    const { file, thumb } = clipFile(id);
    const hooks = d.hooks();
    if (!hooks) return { done: false, detail: NO_DESKTOP };
    hooks.startDrag(file, thumb);
    return { done: true, detail: file };
  });
  r.handle('clips:reveal', ({ id }) => {
    const { file } = clipFile(id);
    const hooks = d.hooks();
    if (!hooks) return { done: false, detail: file };
    hooks.reveal(file);
    return { done: true, detail: file };
  });
}
