import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  net,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  Tray,
  utilityProcess,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { channels } from '../../shared/contract';
import { syncStatusSchema, type SyncStatus } from '../../shared/contract/sync';
import { describeError } from '../../shared/errors';
import { eventChannel } from '../../shared/ipc-names';

const addPathsAnswer = channels['sync:add-paths'].res;
import { ReelsyncApp } from '../app';
import { createLogger, logsDir, type Logger } from '../log';
import { defaultDataDir, rendererBuildDir } from '../paths';
import { utilityForker } from '../service/forker';
import { CONTENT_SECURITY_POLICY } from '../security';
import { resolveInside } from '../web/static-files';
import { cspWithStyleNonce, newStyleNonce, withStyleNonce } from '../web/style-nonce';
import { handleWindowClose, keepsRunningInTray, type CloseRules } from './close';
import { desktopHooks } from './desktop-hooks';
import { createUpdates, installAppMenu } from './app-menu';
import { nativeChooser } from './dialogs';
import { dropSummary, interceptFileDrops } from './drop';
import { registerIpc } from './ipc';
import { followThemeSetting } from './native-theme';
import { handleMediaRequest, MEDIA_SCHEME } from './media-protocol';
import { SyncNotifier, type Note } from './notifier';
import { installCleanQuit } from './quit';
import { TrayController } from './tray';
import { dotBitmap } from './tray-state';
import { SingleInstance } from './single-instance';
import { safeStorageVault } from './vault';
import { guardContents, secureWebPreferences } from './window-security';
import { loadWindowState, MIN_WINDOW_SIZE, placeWindow, saveWindowState, trackWindowState } from './window-state';

const APP_SCHEME = 'reelsync';
const APP_ORIGIN = `${APP_SCHEME}://app`;

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);

const dataDir = defaultDataDir();
let mainWindow: BrowserWindow | null = null;
let windowState: { stop(): void } | undefined;
// Claimed first: a second launch hands its paths to the running app and quits before it opens the log or database.
const instance = new SingleInstance(app, {
  window: () => mainWindow ?? createWindow(),
  addPaths: addPathsAndTell,
  log: (): Logger => core.log,
  skipArgs: process.defaultApp ? 2 : 1,
});
const primaryInstance: boolean = instance.claim(process.argv, process.cwd());
if (!primaryInstance) app.quit();
const core = new ReelsyncApp({
  dataDir,
  mode: 'electron',
  connect: true,
  vault: safeStorageVault(safeStorage),
  // The embedded service runs in a utilityProcess: Electron's own Node child, not a second Electron app.
  embedded: { forker: utilityForker(utilityProcess) },
  logger: primaryInstance ? createLogger('reelsync', { file: join(logsDir(dataDir), 'main.log') }) : undefined,
});
const updates = createUpdates({ window: () => mainWindow, log: core.log });

function tell(n: Note): void {
  if (Notification.isSupported()) new Notification({ title: n.title, body: n.body }).show();
}

async function addPathsAndTell(paths: string[]): Promise<void> {
  const r = await core.registry.invoke('sync:add-paths', { paths });
  tell(
    r.ok
      ? dropSummary(addPathsAnswer.parse(r.value).results)
      : { title: 'Could not add the folders', body: r.error.message },
  );
}

async function syncStatus(): Promise<{ status: SyncStatus | null; problem: string | null }> {
  const r = await core.registry.invoke('sync:status', {});
  return r.ok ? { status: syncStatusSchema.parse(r.value), problem: null } : { status: null, problem: r.error.message };
}

const tray = new TrayController(
  {
    image: (bgra, size) => nativeImage.createFromBitmap(bgra, { width: size, height: size }),
    menu: (template) => Menu.buildFromTemplate(template),
    tray: (image) => new Tray(image),
  },
  {
    status: syncStatus,
    pause: async () => void (await core.registry.invoke('sync:pause', {})),
    resume: async () => void (await core.registry.invoke('sync:resume', {})),
    open: () => showWindow(),
    quit: () => app.quit(),
  },
  core.events,
);
const notifier = new SyncNotifier({
  events: core.events,
  status: async () => (await syncStatus()).status,
  notify: tell,
});
core.desktop = desktopHooks({
  contents: () => mainWindow?.webContents ?? null,
  imageFromPath: (path) => nativeImage.createFromPath(path),
  fallbackIcon: () => nativeImage.createFromBitmap(dotBitmap([79, 140, 255], 64), { width: 64, height: 64 }),
  showItemInFolder: (path) => shell.showItemInFolder(path),
});

core.chooser = nativeChooser(dialog, () => mainWindow);

function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = resolveInside(rendererBuildDir, path);
    if (!file) return new Response('bad path', { status: 400 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    if (!file.endsWith('index.html')) {
      headers.set('content-security-policy', CONTENT_SECURITY_POLICY);
      return new Response(response.body, { status: response.status, headers });
    }
    const nonce = newStyleNonce();
    headers.set('content-security-policy', cspWithStyleNonce(CONTENT_SECURITY_POLICY, nonce));
    return new Response(withStyleNonce(await response.text(), nonce), { status: response.status, headers });
  });
  protocol.handle(MEDIA_SCHEME, (request) => handleMediaRequest(core.media, request));
}

function applyLoginItem(): void {
  core.events.on('settings:changed', (view) => app.setLoginItemSettings({ openAtLogin: view.launchAtLogin }));
}

function createWindow(): BrowserWindow {
  const placed = placeWindow(loadWindowState(core.database), screen.getAllDisplays(), screen.getPrimaryDisplay());
  const win = new BrowserWindow({
    ...placed.bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    backgroundColor: '#111214',
    show: false,
    title: 'Reelsync',
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  if (placed.maximized) win.maximize();
  windowState = trackWindowState(
    win,
    (state) => saveWindowState(core.database, state),
    (err) => core.log.warn({ err: describeError(err) }, 'could not save the window position'),
  );
  win.once('ready-to-show', () => win.show());
  guardContents(win.webContents, (url) => shell.openExternal(url), APP_ORIGIN);
  interceptFileDrops(
    win.webContents,
    async (paths) => {
      const r = await core.registry.invoke('sync:add-paths', { paths });
      if (!r.ok) throw new Error(r.error.message);
      return addPathsAnswer.parse(r.value).results;
    },
    tell,
  );
  const forward = core.events.onAny((name, payload) => {
    if (!win.isDestroyed()) win.webContents.send(eventChannel(name), payload);
  });
  handleWindowClose(win, closeRules);
  win.on('closed', () => {
    forward();
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  mainWindow = win;
  return win;
}

function showWindow(): void {
  const win = mainWindow ?? createWindow();
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

const cleanQuit = installCleanQuit(
  app,
  async () => {
    notifier.stop();
    tray.stop();
    windowState?.stop();
    await core.stop();
  },
  core.log,
);

const closeRules: CloseRules = {
  action: () => core.settings().windowClose(),
  trayPresent: () => tray.present(),
  quitting: () => cleanQuit.quitting(),
  quit: () => app.quit(),
  hint: {
    shown: () => core.settings().trayHintShown(),
    markShown: () => core.settings().setTrayHintShown(),
    notify: tell,
  },
  log: core.log,
};

// A closed window hides into the tray (see close.ts); a window gone some other way leaves the app in the tray only
// where the tray can bring it back and the setting asks for that.
app.on('window-all-closed', () => {
  if (!keepsRunningInTray(closeRules)) app.quit();
});

void app.whenReady().then(async () => {
  if (!primaryInstance) return;
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  serveRenderer();
  registerIpc(ipcMain, core.registry, APP_ORIGIN);
  applyLoginItem();
  await core.start();
  followThemeSetting(nativeTheme, core.settings().theme(), core.events);
  createWindow();
  installAppMenu({ dataDir, window: () => mainWindow, addPaths: addPathsAndTell, log: core.log }, updates);
  instance.ready();
  notifier.start();
  const icon = await tray.start();
  if (!icon.ok) core.log.warn({ reason: icon.reason }, 'no tray icon: closing the window quits the app');
  app.on('activate', () => showWindow());
  if (updates.configured) void updates.check().then((outcome) => core.log.info({ outcome }, 'update check at start'));
});
