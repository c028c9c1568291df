import { join } from 'node:path';
import type { ServiceState } from '../../shared/contract/service';
import { AppError } from '../../shared/errors';
import type { EventBus } from '../events';
import type { Logger } from '../log';
import type { EmbeddedLaunch } from '../service';
import type { AppSettings } from '../settings';
import { connectLibrary, type ConnectOutcome, type ConnectTarget, type LibraryConnection } from './connect';

export interface LibraryAddress {
  baseUrl: string;
  key: string;
}

/** What the connection was made with: a change in Settings takes effect on the next start. */
export interface AppliedSettings {
  endpoint: string;
  concurrency: number;
}

export interface ServiceConnectionDeps {
  dataDir: string;
  events: EventBus;
  logger: Logger;
  /** How the embedded service is started (the Electron shell's utilityProcess forker; test timings). */
  launch?: EmbeddedLaunch;
}

/** The app's one connection to its library service: made at start as the settings say (or given), state, restart, stop. */
export class ServiceConnection {
  private outcome: ConnectOutcome | undefined;
  private appliedSettings: AppliedSettings | undefined;

  constructor(private readonly deps: ServiceConnectionDeps) {}

  /** Connects to the target (as the settings say, or a given service); undefined when none can be used (the UI shows why). */
  async connect(settings: AppSettings, target: ConnectTarget): Promise<LibraryAddress | undefined> {
    if (target.kind === 'settings')
      this.appliedSettings = {
        endpoint: JSON.stringify(settings.endpoint()),
        concurrency: settings.uploadConcurrency(),
      };
    this.outcome = await connectLibrary(settings, target, {
      dataDir: this.deps.dataDir,
      logger: this.deps.logger,
      launch: this.deps.launch,
    });
    const supervisor = this.outcome.state === 'connected' ? this.outcome.connection.supervisor : undefined;
    supervisor?.onState((state) => this.deps.events.emit('service:state', state));
    return this.outcome.state === 'connected'
      ? { baseUrl: this.outcome.connection.baseUrl, key: this.outcome.connection.key }
      : undefined;
  }

  /** How the last connect() went; undefined before one (or after disconnect). */
  current(): ConnectOutcome | undefined {
    return this.outcome;
  }

  applied(): AppliedSettings | undefined {
    return this.appliedSettings;
  }

  /** Why no service is connected, in words for an `offline` answer. */
  offlineReason(): string {
    const o = this.outcome;
    return o && o.state !== 'connected' ? o.reason : 'no library service is connected';
  }

  /** The embedded service's state: `none` without one, crashed when its first start failed. */
  state(): ServiceState {
    const o = this.outcome;
    if (o?.state === 'connected') return o.connection.supervisor?.state() ?? { state: 'none' };
    if (o?.state === 'failed' && o.mode === 'embedded')
      return {
        state: 'crashed',
        reason: o.reason,
        at: Date.now(),
        logFile: join(this.deps.dataDir, 'logs', 'service.log'),
      };
    return { state: 'none' };
  }

  async restart(): Promise<ServiceState> {
    const supervisor = this.outcome?.state === 'connected' ? this.outcome.connection.supervisor : undefined;
    if (!supervisor)
      throw new AppError('offline', 'no embedded library service runs in this app (restart the app to try again)');
    return supervisor.restartNow();
  }

  async disconnect(): Promise<void> {
    const c = this.connected();
    this.outcome = undefined;
    await c?.stop();
  }

  private connected(): LibraryConnection | undefined {
    return this.outcome?.state === 'connected' ? this.outcome.connection : undefined;
  }
}
