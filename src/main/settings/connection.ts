import { join } from 'node:path';
import { describeError, unreachable } from '../../shared/errors';
import { createLocalKey, startLocalService } from '../api/local-service';
import type { Logger } from '../log';
import type { AppSettings } from './app-settings';

/** The library service the app talks to, with what it takes to let go of it. */
export interface LibraryConnection {
  mode: 'embedded' | 'cloud';
  baseUrl: string;
  key: string;
  stop(): Promise<void>;
}

export type ConnectOutcome =
  | { state: 'connected'; connection: LibraryConnection }
  | { state: 'not-configured'; mode: 'cloud'; reason: string }
  | { state: 'failed'; mode: 'embedded' | 'cloud'; reason: string };

/** Credits of the local account the embedded service is created with (a local service bills nobody). */
const LOCAL_CREDITS = 100_000;

/**
 * Connects as the settings say: the embedded service in `<dataDir>/service` (the account key created once and kept,
 * sealed, in the client database), or the configured cloud endpoint with its stored key.
 */
export async function connectLibrary(settings: AppSettings, dataDir: string, logger: Logger): Promise<ConnectOutcome> {
  const endpoint = settings.endpoint();
  switch (endpoint.mode) {
    case 'cloud': {
      let key: string | undefined;
      try {
        key = settings.cloudKey();
      } catch (err) {
        return { state: 'failed', mode: 'cloud', reason: describeError(err) };
      }
      if (!key) return { state: 'not-configured', mode: 'cloud', reason: 'no API key is stored for the cloud endpoint' };
      return { state: 'connected', connection: { mode: 'cloud', baseUrl: endpoint.url, key, stop: () => Promise.resolve() } };
    }
    case 'embedded': {
      const serviceDir = join(dataDir, 'service');
      try {
        let key = settings.embeddedKey();
        if (!key) {
          key = createLocalKey(serviceDir, 'local', LOCAL_CREDITS);
          settings.setEmbeddedKey(key);
        }
        const service = await startLocalService(serviceDir, logger);
        return { state: 'connected', connection: { mode: 'embedded', baseUrl: service.baseUrl, key, stop: () => service.stop() } };
      } catch (err) {
        logger.error({ err: describeError(err), serviceDir }, 'embedded library service did not start');
        return { state: 'failed', mode: 'embedded', reason: describeError(err) };
      }
    }
    default:
      throw unreachable(endpoint);
  }
}
