import type { WebContents, WebPreferences } from 'electron';

/** The renderer's isolation: no node, a sandboxed preload, context isolation. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    spellcheck: false,
  };
}

/** Navigation away from the app is blocked; new windows are denied (https links open in the system browser). */
export function guardContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  openExternal: (url: string) => Promise<void>,
  appOrigin: string,
): void {
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${appOrigin}/`)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void openExternal(url).catch(() => undefined);
    return { action: 'deny' };
  });
}
