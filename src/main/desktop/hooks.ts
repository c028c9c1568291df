import type { Reveal } from './os-reveal';

/** What only a desktop shell can do; the Electron shell installs these, the web mode has none. */
export interface DesktopHooks {
  /** An OS drag of a file out of the window (webContents.startDrag). */
  startDrag(file: string, icon: string | null): void;
  /** Shows the file in the system file manager. */
  reveal(file: string): void;
}

export interface DesktopAnswer {
  done: boolean;
  detail: string;
}

/** Handing a file to the operating system, as the features' channels need it in every mode. */
export interface DesktopAccess {
  drag(file: string, icon: string | null): DesktopAnswer;
  reveal(file: string): Promise<DesktopAnswer>;
}

const NO_DESKTOP = 'a browser cannot hand a file to the operating system: use the path shown, or run the desktop app';

/**
 * The Electron hooks while the shell has installed them; without them a drag answers why not, and a reveal runs
 * `osReveal` (the web mode runs the OS file manager) or answers with the path. Callers pass only paths main looked up
 * itself: the renderer names a record, never a path.
 */
export function desktopAccess(hooks: () => DesktopHooks | undefined, osReveal?: Reveal): DesktopAccess {
  return {
    drag(file, icon) {
      const h = hooks();
      if (!h) return { done: false, detail: NO_DESKTOP };
      h.startDrag(file, icon);
      return { done: true, detail: file };
    },
    async reveal(file) {
      const h = hooks();
      if (h) {
        h.reveal(file);
        return { done: true, detail: file };
      }
      return osReveal ? osReveal(file) : { done: false, detail: file };
    },
  };
}
