import { join } from 'node:path';
import { EventBus } from './events';
import { HandlerRegistry } from './ipc/registry';
import { createLogger, type Logger } from './log';
import { openDatabase, type Db } from './store/database';
import { APP_VERSION } from './version';

export type AppMode = 'electron' | 'web' | 'cli';

export interface AppOptions {
  dataDir: string;
  mode: AppMode;
  logger?: Logger;
}

/** Composition root: builds the services and registers the contract handlers. No electron import. */
export class ReelsyncApp {
  readonly registry: HandlerRegistry;
  readonly events = new EventBus();
  readonly log: Logger;
  private db: Db | undefined;
  private readonly startedAt = Date.now();

  constructor(private readonly options: AppOptions) {
    this.log = (options.logger ?? createLogger()).child({ module: 'app' });
    this.registry = new HandlerRegistry(this.log.child({ module: 'ipc' }));
    this.registerHandlers();
  }

  get database(): Db {
    if (!this.db) throw new Error('app not started');
    return this.db;
  }

  async start(): Promise<void> {
    this.events.emit('app:status', { state: 'starting', at: Date.now() });
    this.db = openDatabase(join(this.options.dataDir, 'reelsync.db'));
    this.events.emit('app:status', { state: 'ready', at: Date.now() });
    this.log.info({ dataDir: this.options.dataDir, mode: this.options.mode }, 'started');
  }

  async stop(): Promise<void> {
    this.events.emit('app:status', { state: 'stopping', at: Date.now() });
    this.db?.close();
    this.db = undefined;
  }

  private registerHandlers(): void {
    this.registry.handle('app:info', () => ({
      name: 'Reelsync' as const,
      version: APP_VERSION,
      mode: this.options.mode,
      platform: process.platform,
      dataDir: this.options.dataDir,
      startedAt: this.startedAt,
    }));
    this.registry.handle('app:echo', ({ text }) => ({ text, receivedAt: Date.now() }));
  }
}
