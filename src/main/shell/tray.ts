import type { MenuItemConstructorOptions } from 'electron';
import type { SyncStatus } from '../../shared/contract/sync';
import { describeError } from '../../shared/errors';
import type { EventBus } from '../events';
import { dotBitmap, trayColor, trayLabel, trayStateOf, type TrayState } from './tray-state';

/** The parts of Electron's Tray, Menu and nativeImage the controller uses (injected: tests mock them). */
export interface TrayHost<Image, TrayMenu> {
  image(bgra: Buffer, size: number): Image;
  menu(template: MenuItemConstructorOptions[]): TrayMenu;
  tray(image: Image): {
    setImage(i: Image): void;
    setToolTip(t: string): void;
    setContextMenu(m: TrayMenu): void;
    destroy(): void;
  };
}

export interface TrayActions {
  status(): Promise<{ status: SyncStatus | null; problem: string | null }>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  open(): void;
  quit(): void;
}

/** Tray icon with the sync state (idle, syncing N, paused, error) and pause/resume, open and quit. */
export class TrayController<Image, TrayMenu> {
  private tray: ReturnType<TrayHost<Image, TrayMenu>['tray']> | null = null;
  private state: TrayState | null = null;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | null = null;
  private offs: (() => void)[] = [];

  constructor(
    private readonly host: TrayHost<Image, TrayMenu>,
    private readonly actions: TrayActions,
    private readonly events: EventBus,
    private readonly everyMs = 5000,
  ) {}

  /** Creates the icon; where that fails (no tray on this desktop) it says why and the app goes on without one. */
  async start(): Promise<{ ok: true } | { ok: false; reason: string }> {
    try {
      this.tray = this.host.tray(this.host.image(dotBitmap([139, 141, 148], 16), 16));
    } catch (err) {
      return { ok: false, reason: describeError(err) };
    }
    const soon = (): void => void this.refresh();
    this.offs = [this.events.on('sync:queue', soon), this.events.on('sync:file-changed', soon)];
    this.timer = setInterval(soon, this.everyMs);
    this.timer.unref();
    await this.refresh();
    return { ok: true };
  }

  /** A tray icon exists: the way back to a hidden window (and to Quit). */
  present(): boolean {
    return this.tray !== null;
  }

  current(): TrayState | null {
    return this.state;
  }

  /** Reads the status and redraws when the state changed; concurrent calls share one read. */
  refresh(): Promise<void> {
    this.refreshing ??= this.read().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  stop(): void {
    clearInterval(this.timer);
    this.offs.forEach((off) => off());
    this.tray?.destroy();
    this.tray = null;
  }

  private async read(): Promise<void> {
    const { status, problem } = await this.actions.status();
    const next = trayStateOf(status, problem);
    if (this.state && JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    this.draw(next);
  }

  private draw(s: TrayState): void {
    const tray = this.tray;
    if (!tray) return;
    const label = trayLabel(s);
    tray.setImage(this.host.image(dotBitmap(trayColor(s), 16), 16));
    tray.setToolTip(`Reelsync · ${label}`);
    const paused = s.kind === 'paused';
    tray.setContextMenu(
      this.host.menu([
        { label, enabled: false },
        { type: 'separator' },
        paused
          ? {
              label: 'Resume syncing',
              click: () =>
                void this.actions.resume().then(
                  () => this.refresh(),
                  () => this.refresh(),
                ),
            }
          : {
              label: 'Pause syncing',
              enabled: s.kind !== 'error' || s.message.endsWith('failed'),
              click: () =>
                void this.actions.pause().then(
                  () => this.refresh(),
                  () => this.refresh(),
                ),
            },
        { label: 'Open Reelsync', click: () => this.actions.open() },
        { type: 'separator' },
        { label: 'Quit Reelsync', click: () => this.actions.quit() },
      ]),
    );
  }
}
