import type { MenuItemConstructorOptions } from 'electron';

/** What the app's own menu items do; everything else is a standard role Electron implements. */
export interface MenuActions {
  addFolder(): void;
  openLogs(): void;
  revealData(): void;
  checkForUpdates(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Not packaged: Reload and the developer tools are there only then. */
  dev: boolean;
  /** Whether an update feed is set (REELSYNC_UPDATE_URL or the saved update URL). */
  updatesConfigured: boolean;
  actions: MenuActions;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

/** The item's label says when there is nothing to check against; clicking it then explains how to set a feed. */
export function updatesLabel(configured: boolean): string {
  return configured ? 'Check for Updates…' : 'Check for Updates… (not configured)';
}

/**
 * The application menu, as Menu.buildFromTemplate takes it: the platform's standard roles (so Cut/Copy/Paste, Hide,
 * Services and full screen behave as editors expect) plus Reelsync's own File and Help items.
 */
export function appMenuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const mac = o.platform === 'darwin';
  const a = o.actions;
  const appMenu: MenuItemConstructorOptions = {
    label: 'Reelsync',
    submenu: [
      { role: 'about' },
      separator,
      { role: 'services' },
      separator,
      { role: 'hide', accelerator: 'Cmd+H' },
      { role: 'hideOthers', accelerator: 'Cmd+Alt+H' },
      { role: 'unhide' },
      separator,
      { role: 'quit', accelerator: 'Cmd+Q' },
    ],
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Add Folder…', accelerator: 'CmdOrCtrl+O', click: () => a.addFolder() },
      separator,
      { role: 'close', label: 'Close Window', accelerator: 'CmdOrCtrl+W' },
      ...(mac
        ? []
        : [separator, { role: 'quit', label: 'Quit', accelerator: 'Ctrl+Q' } satisfies MenuItemConstructorOptions]),
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo', accelerator: 'CmdOrCtrl+Z' },
      { role: 'redo', accelerator: mac ? 'Shift+Cmd+Z' : 'Ctrl+Y' },
      separator,
      { role: 'cut', accelerator: 'CmdOrCtrl+X' },
      { role: 'copy', accelerator: 'CmdOrCtrl+C' },
      { role: 'paste', accelerator: 'CmdOrCtrl+V' },
      ...(mac
        ? [{ role: 'pasteAndMatchStyle', accelerator: 'Shift+Alt+Cmd+V' } satisfies MenuItemConstructorOptions]
        : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll', accelerator: 'CmdOrCtrl+A' },
    ],
  };
  const devItems: MenuItemConstructorOptions[] = o.dev
    ? [
        { role: 'reload', accelerator: 'CmdOrCtrl+R' },
        { role: 'forceReload', accelerator: 'Shift+CmdOrCtrl+R' },
        { role: 'toggleDevTools', accelerator: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I' },
        separator,
      ]
    : [];
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...devItems,
      { role: 'resetZoom', accelerator: 'CmdOrCtrl+0' },
      // CmdOrCtrl+Plus needs Shift on most layouts; = is the key the + is printed on.
      { role: 'zoomIn', accelerator: 'CmdOrCtrl+=' },
      { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
      separator,
      { role: 'togglefullscreen', accelerator: mac ? 'Ctrl+Cmd+F' : 'F11' },
    ],
  };
  const window: MenuItemConstructorOptions = {
    label: 'Window',
    role: 'window',
    submenu: mac
      ? [{ role: 'minimize', accelerator: 'Cmd+M' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize', accelerator: 'Ctrl+M' }],
  };
  const help: MenuItemConstructorOptions = {
    label: 'Help',
    role: 'help',
    submenu: [
      { label: 'Open Logs Folder', click: () => a.openLogs() },
      { label: 'Reveal Data Folder', click: () => a.revealData() },
      separator,
      { label: updatesLabel(o.updatesConfigured), click: () => a.checkForUpdates() },
      // On macOS About sits in the app menu.
      ...(mac ? [] : [separator, { role: 'about', label: 'About Reelsync' } satisfies MenuItemConstructorOptions]),
    ],
  };
  return [...(mac ? [appMenu] : []), file, edit, view, window, help];
}
