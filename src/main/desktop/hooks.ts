import { existsSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import type { HandlerRegistry } from '../ipc/registry';
import type { ClipsService } from '../library/clips-service';
import { addPaths, type Watcher } from '../sync/add-paths';
import type { Reveal } from './os-reveal';

/** What only a desktop shell can do; the Electron shell installs these, the web mode has none. */
export interface DesktopHooks {
  /** An OS drag of a file out of the window (webContents.startDrag). */
  startDrag(file: string, icon: string | null): void;
  /** Shows the file in the system file manager. */
  reveal(file: string): void;
}

const NO_DESKTOP = 'a browser cannot hand a file to the operating system: use the path shown, or run the desktop app';

export interface DesktopDeps {
  watcher: () => Watcher;
  clips: () => ClipsService;
  /** A library file's local path by its id (the sync engine's record), undefined when there is no such file. */
  filePath: (id: number) => string | undefined;
  hooks: () => DesktopHooks | undefined;
  /** Without the Electron hooks: how this mode reveals a file (the web mode runs the OS file manager). */
  osReveal?: Reveal;
}

/** sync:add-paths, clips:drag-out, clips:reveal and files:reveal. */
export function registerDesktopHandlers(r: HandlerRegistry, d: DesktopDeps): void {
  r.handle('sync:add-paths', async ({ paths, options }) => ({ results: await addPaths(paths, d.watcher(), options) }));

  const clipFile = (id: number): { file: string; thumb: string | null } => {
    const clip = d.clips().get(id);
    if (clip.state !== 'ready' || !clip.path)
      throw new AppError('conflict', `clip ${id} is ${clip.state}: there is no file yet`);
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
  // Only paths main looked up itself reach the file manager: the renderer names a record, never a path.
  const reveal = async (file: string): Promise<{ done: boolean; detail: string }> => {
    const hooks = d.hooks();
    if (hooks) {
      hooks.reveal(file);
      return { done: true, detail: file };
    }
    return d.osReveal ? d.osReveal(file) : { done: false, detail: file };
  };
  r.handle('clips:reveal', ({ id }) => reveal(clipFile(id).file));
  r.handle('files:reveal', ({ id }) => {
    const file = d.filePath(id);
    if (file === undefined) throw new AppError('not_found', `no library file ${id}`);
    if (!existsSync(file)) throw new AppError('not_found', `the file is gone from disk: ${file}`);
    return reveal(file);
  });
}
