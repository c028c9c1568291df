import { join } from 'node:path';
import { describeError, unreachable } from '../../shared/errors';
import { LibraryClient } from '../api/client';
import type { Logger } from '../log';
import { startEmbeddedService, type EmbeddedLaunch, type ServiceSupervisor } from '../service';
import type { AppSettings } from '../settings';

/** The library service the app talks to, with what it takes to let go of it. */
export interface LibraryConnection {
  mode: 'embedded' | 'cloud';
  baseUrl: string;
  key: string;
  /** Given when the app was started (--server, options), not chosen in Settings. */
  given?: boolean;
  /** The embedded service's supervisor (its live state, restart); none for a cloud endpoint. */
  supervisor?: ServiceSupervisor;
  stop(): Promise<void>;
}

export type ConnectOutcome =
  | { state: 'connected'; connection: LibraryConnection }
  | { state: 'not-configured'; mode: 'cloud'; reason: string }
  | { state: 'failed'; mode: 'embedded' | 'cloud'; reason: string };

/** Which service to connect to. */
export type ConnectTarget =
  /** As the saved settings say: the embedded service, or the cloud endpoint with its stored key. */
  | { kind: 'settings' }
  /** The embedded service whatever the settings say (the command line without --server); `key` overrides the stored one. */
  | { kind: 'embedded'; key?: string }
  /** An address and key given by the caller (--server, tests): used as is, stopped by its owner. */
  | { kind: 'given'; baseUrl: string; key: string };

export interface ConnectOptions {
  /** The client's data folder: the embedded service lives in `<dataDir>/service`, logs in `<dataDir>/logs`. */
  dataDir: string;
  logger: Logger;
  launch?: EmbeddedLaunch;
}

/**
 * The one way the app, the web mode and the command line reach their library service. The embedded service runs in
 * `<dataDir>/service`, supervised, logging to `<dataDir>/logs/service.log`; its account key is created once and kept
 * sealed through the settings' vault (the OS keychain where there is one), like the cloud key.
 */
export async function connectLibrary(
  settings: AppSettings,
  target: ConnectTarget,
  o: ConnectOptions,
): Promise<ConnectOutcome> {
  switch (target.kind) {
    case 'given':
      return {
        state: 'connected',
        connection: {
          mode: 'cloud',
          given: true,
          baseUrl: target.baseUrl,
          key: target.key,
          stop: () => Promise.resolve(),
        },
      };
    case 'embedded':
      return connectEmbedded(settings, o, target.key);
    case 'settings':
      return connectAsSettingsSay(settings, o);
    default:
      throw unreachable(target);
  }
}

async function connectAsSettingsSay(settings: AppSettings, o: ConnectOptions): Promise<ConnectOutcome> {
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
    case 'embedded':
      return connectEmbedded(settings, o);
    default:
      throw unreachable(endpoint);
  }
}

async function connectEmbedded(settings: AppSettings, o: ConnectOptions, givenKey?: string): Promise<ConnectOutcome> {
  const serviceDir = join(o.dataDir, 'service');
  try {
    const service = await startEmbeddedService({
      ...o.launch,
      serviceDir,
      logDir: join(o.dataDir, 'logs'),
      keys: { get: () => givenKey ?? settings.embeddedKey(), set: (key) => settings.setEmbeddedKey(key) },
      logger: o.logger,
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
    o.logger.error({ err: describeError(err), serviceDir }, 'embedded library service did not start');
    return { state: 'failed', mode: 'embedded', reason: describeError(err) };
  }
}

/** A connection with its API client, for a caller that needs the service or an error (the command line). */
export interface ConnectedClient {
  client: LibraryClient;
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

/** connectLibrary, then a client on it; throws with the reason when no service can be used. */
export async function connectClient(
  settings: AppSettings,
  target: ConnectTarget,
  o: ConnectOptions,
): Promise<ConnectedClient> {
  const outcome = await connectLibrary(settings, target, o);
  if (outcome.state !== 'connected') throw new Error(outcome.reason);
  const { baseUrl, key } = outcome.connection;
  const client = new LibraryClient({ baseUrl, key, logger: o.logger });
  return {
    client,
    baseUrl,
    key,
    close: async () => {
      await client.close();
      await outcome.connection.stop();
    },
  };
}
