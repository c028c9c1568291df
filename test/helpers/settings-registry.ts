import { ServiceConnection } from '../../src/main/connection/library-connection';
import type { EventBus } from '../../src/main/events';
import { HandlerRegistry } from '../../src/main/ipc/registry';
import { createLogger } from '../../src/main/log';
import { AppSettings } from '../../src/main/settings/app-settings';
import { settingsHandlers } from '../../src/main/settings/handlers';
import { databaseVault } from '../../src/main/settings/key-vault';
import type { Db } from '../../src/main/store/database';

/** The settings channels alone, over a real client database, with no library service connected. */
export function settingsRegistry(db: Db, dataDir: string, events: EventBus): HandlerRegistry {
  const logger = createLogger('test');
  const registry = new HandlerRegistry(logger);
  registry.register(
    settingsHandlers({
      settings: () => new AppSettings(db, databaseVault),
      db: () => db,
      connection: new ServiceConnection({ dataDir, events, logger }),
      events,
      remoteDeleteChanged: () => undefined,
      // No library runs here to switch: what the settings say is only saved.
      switchLibrary: () => Promise.resolve(),
      logger,
    }),
  );
  return registry;
}
