import { join } from 'node:path';
import { describeError, unreachable } from '../../shared/errors';
import type { Logger } from '../log';
import { startEmbeddedService, type EmbeddedLaunch } from '../service/embedded';
import type { ServiceSupervisor } from '../service/supervisor';
import type { AppSettings } from '../settings/app-settings';

/** The library service the app talks to, with what it takes to let go of it. */
export interface LibraryConnection {
  mode: 'embedded' | 'cloud';
  baseUrl: string;
  key: string;
  /** The embedded service's supervisor (its live state, restart); none for a cloud endpoint. */
  supervisor?: ServiceSupervisor;
  stop(): Promise<void>;
}

export type ConnectOutcome =
  | { state: 'connected'; connection: LibraryConnection }
  | { state: 'not-configured'; mode: 'cloud'; reason: string }
  | { state: 'failed'; mode: 'embedded' | 'cloud'; reason: string };

/**
 * Connects as the settings say: the embedded service in `<dataDir>/service`, supervised, logging to
 * `<dataDir>/logs/service.log` (the account key created once and kept, sealed, in the client database), or the
 * configured cloud endpoint with its stored key.
 */
export async function connectLibrary(
  settings: AppSettings,
  dataDir: string,
  logger: Logger,
  launch: EmbeddedLaunch = {},
): Promise<ConnectOutcome> {
  const endpoint = settings.endpoint();
  switch (endpoint.mode) {
    case 'cloud': {
      let key: string | undefined;
      try {
        key = settings.cloudKey();
      } catch (err) {
        return { state: 'failed', mode: 'cloud', reason: describeError(err) };
      }
      if (!key)
        return { state: 'not-configured', mode: 'cloud', reason: 'no API key is stored for the cloud endpoint' };
      return {
        state: 'connected',
        connection: { mode: 'cloud', baseUrl: endpoint.url, key, stop: () => Promise.resolve() },
      };
    }
    case 'embedded': {
      const serviceDir = join(dataDir, 'service');
      try {
        const service = await startEmbeddedService({
          ...launch,
          serviceDir,
          logDir: join(dataDir, 'logs'),
          keys: { get: () => settings.embeddedKey(), set: (key) => settings.setEmbeddedKey(key) },
          logger,
        });
        const connection: LibraryConnection = {
          mode: 'embedded',
          baseUrl: service.baseUrl,
          key: service.key,
          supervisor: service.supervisor,
          stop: () => service.stop(),
        };
        return { state: 'connected', connection };
      } catch (err) {
        logger.error({ err: describeError(err), serviceDir }, 'embedded library service did not start');
        return { state: 'failed', mode: 'embedded', reason: describeError(err) };
      }
    }
    default:
      throw unreachable(endpoint);
  }
}
