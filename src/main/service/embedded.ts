import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { API_BASE_PATH } from '../../shared/api-types';
import type { Logger } from '../log';
import { builtEntry } from '../paths';
import { nodeForker, type Forker } from './forker';
import { ServiceLog } from './service-log';
import { ServiceSupervisor, type SupervisorTuning } from './supervisor';

/** Credits of the local account the embedded service is created with (a local service bills nobody). */
export const LOCAL_CREDITS = 100_000;

/** Where the key of the local account is kept between runs (the client database, sealed or not). */
export interface KeyStore {
  get(): string | undefined;
  set(key: string): void;
}

/** How the embedded service is started: the Electron shell passes a utilityProcess forker; tests may tune timings. */
export interface EmbeddedLaunch {
  forker?: Forker;
  tuning?: Partial<SupervisorTuning>;
}

export interface EmbeddedOptions extends EmbeddedLaunch {
  /** The service's data folder. */
  serviceDir: string;
  /** The app's log folder: the service writes service.log there. */
  logDir: string;
  keys: KeyStore;
  logger: Logger;
}

export interface EmbeddedService {
  supervisor: ServiceSupervisor;
  baseUrl: string;
  key: string;
  stop(): Promise<void>;
}

/**
 * The one way the app and the CLI start their embedded library service: the built entry under supervision, and on
 * the first run the local account's key, created by the running service over its IPC channel and then kept.
 */
export async function startEmbeddedService(o: EmbeddedOptions): Promise<EmbeddedService> {
  const entry = builtEntry('service/cli.js');
  if (!existsSync(entry)) throw new Error(`the library service is not built (${entry} is missing): run npm run build`);
  const supervisor = new ServiceSupervisor({
    forker: o.forker ?? nodeForker,
    entry,
    dataDir: o.serviceDir,
    log: new ServiceLog(join(o.logDir, 'service.log')),
    logger: o.logger,
    tuning: o.tuning,
  });
  try {
    const origin = await supervisor.start();
    let key = o.keys.get();
    if (!key) {
      key = await supervisor.createKey('local', 'library', LOCAL_CREDITS);
      o.keys.set(key);
    }
    return { supervisor, baseUrl: `${origin}${API_BASE_PATH}`, key, stop: () => supervisor.stop() };
  } catch (err) {
    await supervisor.stop();
    throw err;
  }
}
