import { DEFAULT_WINDOW_CLOSE, type WindowCloseAction } from '../../shared/contract/settings';
import { describeError } from '../../shared/errors';
import type { Logger } from '../log';
import type { Note } from './notifier';

/** What the close handler needs from the app (injected: tests mock them). */
export interface CloseRules {
  /** The saved choice, read at each close so a change in Settings applies at once. */
  action(): WindowCloseAction;
  /** A tray icon exists (its creation succeeded): without one a hidden window could not be reached again. */
  trayPresent(): boolean;
  /** A clean quit is under way: the window closes for real. */
  quitting(): boolean;
  /** The app's quit path (app.quit: before-quit holds it until the services have stopped). */
  quit(): void;
  /** The one-time "still syncing in the tray" notification, remembered across runs. */
  hint: { shown(): boolean; markShown(): void; notify(n: Note): void };
  log: Logger;
}

export const TRAY_HINT: Note = {
  title: 'Reelsync keeps syncing',
  body: 'The window is closed; syncing goes on from the tray icon. Quit from its menu, or set closing the window to quit in Settings.',
};

/** Whether closing the window leaves the app running in the tray: the setting says so and a tray icon exists. */
export function keepsRunningInTray(rules: Pick<CloseRules, 'action' | 'trayPresent' | 'log'>): boolean {
  if (!rules.trayPresent()) return false;
  let action: WindowCloseAction = DEFAULT_WINDOW_CLOSE;
  try {
    action = rules.action();
  } catch (err) {
    rules.log.warn({ err: describeError(err) }, 'window close setting unreadable: using the default');
  }
  return action === 'tray';
}

interface ClosableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  hide(): void;
}

/**
 * Closing the window hides it into the tray when the setting asks for that and a tray icon exists; otherwise the app
 * quits through its clean quit path. During a quit the window closes normally.
 */
export function handleWindowClose(win: ClosableWindow, rules: CloseRules): void {
  win.on('close', (event) => {
    if (rules.quitting()) return;
    event.preventDefault();
    win.hide();
    if (!keepsRunningInTray(rules)) {
      rules.log.info({ trayPresent: rules.trayPresent() }, 'window closed: quitting');
      rules.quit();
      return;
    }
    try {
      if (rules.hint.shown()) return;
      rules.hint.markShown();
      rules.hint.notify(TRAY_HINT);
    } catch (err) {
      rules.log.warn({ err: describeError(err) }, 'tray notification not shown');
    }
  });
}
