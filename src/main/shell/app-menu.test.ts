import type { MenuItemConstructorOptions } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { createLogger } from '../log';

const calls = vi.hoisted(() => ({
  template: [] as MenuItemConstructorOptions[],
  opened: [] as string[],
  openFailure: '',
  messages: [] as { message: string; detail?: string }[],
  pick: { canceled: false, filePaths: [] as string[] },
}));

vi.mock('electron', () => ({
  app: { isPackaged: false, setAboutPanelOptions: () => undefined },
  Menu: {
    buildFromTemplate: (t: MenuItemConstructorOptions[]) => ((calls.template = t), t),
    setApplicationMenu: () => undefined,
  },
  shell: { openPath: (p: string) => (calls.opened.push(p), Promise.resolve(calls.openFailure)) },
  dialog: {
    showMessageBox: (o: { message: string; detail?: string }) => (
      calls.messages.push({ message: o.message, detail: o.detail }),
      Promise.resolve({ response: 1 })
    ),
    showOpenDialog: () => Promise.resolve(calls.pick),
  },
}));

const { createUpdates, installAppMenu } = await import('./app-menu');

let dir: string;
let cleanup: () => Promise<void>;
const savedUrl = process.env.REELSYNC_UPDATE_URL;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-menu-'));
  Object.assign(calls, {
    template: [],
    opened: [],
    openFailure: '',
    messages: [],
    pick: { canceled: false, filePaths: [] },
  });
  delete process.env.REELSYNC_UPDATE_URL;
});
afterEach(async () => {
  if (savedUrl === undefined) delete process.env.REELSYNC_UPDATE_URL;
  else process.env.REELSYNC_UPDATE_URL = savedUrl;
  await cleanup();
});

function click(label: string): void {
  const all = (t: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
    t.flatMap((m) => [m, ...all(Array.isArray(m.submenu) ? m.submenu : [])]);
  const item = all(calls.template).find((i) => i.label === label);
  if (typeof item?.click !== 'function') throw new Error(`no menu item ${label}`);
  (item.click as () => void)();
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('the app menu wired to the app (electron mocked)', () => {
  it('opens <data>/logs and the data folder from Help, creating the logs folder when it is not there yet', async () => {
    const added: string[][] = [];
    const log = createLogger('test');
    installAppMenu(
      { dataDir: dir, window: () => null, addPaths: (p) => (added.push(p), Promise.resolve()), log },
      createUpdates({ window: () => null, log }),
    );
    click('Open Logs Folder');
    await settle();
    expect(calls.opened).toEqual([join(dir, 'logs')]);
    expect(existsSync(join(dir, 'logs'))).toBe(true);
    calls.openFailure = 'Failed to open path';
    click('Reveal Data Folder');
    await settle();
    expect(calls.opened).toEqual([join(dir, 'logs'), dir]);
    expect(calls.messages).toEqual([{ message: 'Could not open the folder', detail: `${dir}: Failed to open path` }]);

    calls.pick = { canceled: false, filePaths: [join(dir, 'Day 1')] };
    click('Add Folder…');
    await settle();
    expect(added).toEqual([[join(dir, 'Day 1')]]);
  });

  it('says in a dialog that updates are not configured when REELSYNC_UPDATE_URL is unset (the check path: updates.test.ts)', async () => {
    const log = createLogger('test');
    installAppMenu(
      { dataDir: dir, window: () => null, addPaths: () => Promise.resolve(), log },
      createUpdates({ window: () => null, log }),
    );
    click('Check for Updates… (not configured)');
    await settle();
    expect(calls.messages.at(-1)?.message).toBe('Updates are not configured');
    expect(calls.messages.at(-1)?.detail).toContain('REELSYNC_UPDATE_URL');
  });
});
