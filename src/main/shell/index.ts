import { app, BrowserWindow, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventChannel } from '../../shared/ipc-names';
import { ReelsyncApp } from '../app';
import { defaultDataDir, rendererBuildDir } from '../paths';
import { CONTENT_SECURITY_POLICY } from '../security';
import { resolveInside } from '../web/static-files';
import { registerIpc } from './ipc';
import { handleMediaRequest, MEDIA_SCHEME } from './media-protocol';
import { safeStorageVault } from './vault';
import { guardContents, secureWebPreferences } from './window-security';

const APP_SCHEME = 'reelsync';
const APP_ORIGIN = `${APP_SCHEME}://app`;

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);

const core = new ReelsyncApp({ dataDir: defaultDataDir(), mode: 'electron', connect: true, vault: safeStorageVault(safeStorage) });
let quitting = false;

function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = resolveInside(rendererBuildDir, path);
    if (!file) return new Response('bad path', { status: 400 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('content-security-policy', CONTENT_SECURITY_POLICY);
    return new Response(response.body, { status: response.status, headers });
  });
  protocol.handle(MEDIA_SCHEME, (request) => handleMediaRequest(core.browse, request));
}

function applyLoginItem(): void {
  core.events.on('settings:changed', (view) => app.setLoginItemSettings({ openAtLogin: view.launchAtLogin }));
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    backgroundColor: '#111214',
    show: false,
    title: 'Reelsync',
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  win.once('ready-to-show', () => win.show());
  guardContents(win.webContents, (url) => shell.openExternal(url), APP_ORIGIN);
  const forward = core.events.onAny((name, payload) => {
    if (!win.isDestroyed()) win.webContents.send(eventChannel(name), payload);
  });
  win.on('closed', forward);
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

app.on('before-quit', (event) => {
  if (quitting) return;
  event.preventDefault();
  quitting = true;
  void core.stop().finally(() => app.quit());
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

void app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  serveRenderer();
  registerIpc(ipcMain, core.registry, APP_ORIGIN);
  applyLoginItem();
  await core.start();
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});
