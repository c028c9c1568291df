import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, updatesLabel, type MenuActions } from './menu';

/** Menu actions that record which ran. */
function actions(ran: string[] = []): MenuActions {
  return {
    addFolder: () => ran.push('addFolder'),
    openLogs: () => ran.push('openLogs'),
    revealData: () => ran.push('revealData'),
    checkForUpdates: () => ran.push('checkForUpdates'),
  };
}

function items(menu: MenuItemConstructorOptions): MenuItemConstructorOptions[] {
  return Array.isArray(menu.submenu) ? menu.submenu : [];
}

/** Every item of the template, depth first. */
function flatten(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((m) => [m, ...flatten(items(m))]);
}

const named = (template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] =>
  items(template.find((m) => m.label === label) ?? {});
const roles = (list: MenuItemConstructorOptions[]) =>
  list.filter((i) => i.type !== 'separator').map((i) => i.role ?? i.label);

describe('application menu template', () => {
  it('gives macOS its app menu with about, services, hide and quit, and the standard menus after it', () => {
    const t = appMenuTemplate({ platform: 'darwin', dev: false, updatesConfigured: true, actions: actions() });
    expect(t.map((m) => m.label)).toEqual(['Reelsync', 'File', 'Edit', 'View', 'Window', 'Help']);
    expect(roles(items(t[0] ?? {}))).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(roles(named(t, 'File'))).toEqual(['Add Folder…', 'close']);
    expect(roles(named(t, 'Edit'))).toEqual([
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'pasteAndMatchStyle',
      'delete',
      'selectAll',
    ]);
    expect(roles(named(t, 'View'))).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
    expect(roles(named(t, 'Window'))).toEqual(['minimize', 'zoom', 'front']);
    expect(roles(named(t, 'Help'))).toEqual(['Open Logs Folder', 'Reveal Data Folder', 'Check for Updates…']);
    expect(t.find((m) => m.label === 'Help')?.role).toBe('help');
  });

  it('puts Quit in File and About in Help on Windows and Linux, with no app menu', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const t = appMenuTemplate({ platform, dev: false, updatesConfigured: true, actions: actions() });
      expect(t.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
      expect(roles(named(t, 'File'))).toEqual(['Add Folder…', 'close', 'quit']);
      expect(roles(named(t, 'Edit'))).not.toContain('pasteAndMatchStyle');
      expect(roles(named(t, 'Help')).at(-1)).toBe('about');
      expect(flatten(t).some((i) => i.role === 'services' || i.role === 'hide')).toBe(false);
    }
  });

  it('offers reload and developer tools only when not packaged', () => {
    const packaged = flatten(
      appMenuTemplate({ platform: 'linux', dev: false, updatesConfigured: true, actions: actions() }),
    );
    const dev = flatten(appMenuTemplate({ platform: 'linux', dev: true, updatesConfigured: true, actions: actions() }));
    for (const role of ['reload', 'forceReload', 'toggleDevTools'] as const) {
      expect(packaged.some((i) => i.role === role)).toBe(false);
      expect(dev.some((i) => i.role === role)).toBe(true);
    }
  });

  it('binds the shortcuts editors expect, each at most once per platform', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const all = flatten(appMenuTemplate({ platform, dev: true, updatesConfigured: true, actions: actions() }));
      const keys = all.map((i) => i.accelerator).filter((k): k is string => typeof k === 'string');
      expect(new Set(keys).size, `${platform}: ${keys.join(' ')}`).toBe(keys.length);
      const key = (match: (i: MenuItemConstructorOptions) => boolean) => all.find(match)?.accelerator;
      expect(key((i) => i.label === 'Add Folder…')).toBe('CmdOrCtrl+O');
      expect(key((i) => i.role === 'close')).toBe('CmdOrCtrl+W');
      expect(key((i) => i.role === 'copy')).toBe('CmdOrCtrl+C');
      expect(key((i) => i.role === 'selectAll')).toBe('CmdOrCtrl+A');
      expect(key((i) => i.role === 'zoomIn')).toBe('CmdOrCtrl+=');
      expect(key((i) => i.role === 'quit')).toBe(platform === 'darwin' ? 'Cmd+Q' : 'Ctrl+Q');
      expect(key((i) => i.role === 'togglefullscreen')).toBe(platform === 'darwin' ? 'Ctrl+Cmd+F' : 'F11');
      expect(key((i) => i.role === 'redo')).toBe(platform === 'darwin' ? 'Shift+Cmd+Z' : 'Ctrl+Y');
    }
  });

  it('runs the app actions from its own items and says when updates are not configured', () => {
    const ran: string[] = [];
    const all = flatten(
      appMenuTemplate({ platform: 'linux', dev: false, updatesConfigured: false, actions: actions(ran) }),
    );
    const click = (label: string) => {
      const item = all.find((i) => i.label === label);
      expect(item?.click, label).toBeTypeOf('function');
      (item?.click as () => void)();
    };
    click('Add Folder…');
    click('Open Logs Folder');
    click('Reveal Data Folder');
    click(updatesLabel(false));
    expect(updatesLabel(false)).toMatch(/not configured/);
    expect(ran).toEqual(['addFolder', 'openLogs', 'revealData', 'checkForUpdates']);
  });
});
