import type { RemoteDeletePolicy, SettingsView } from '../../shared/contract/settings';
import type { ServiceConnection } from '../connection';
import { serviceProblem } from '../service';
import type { AppSettings } from './app-settings';

/** Settings as the UI shows them: the stored values, how the connection went, and whether a change needs a restart. */
export function settingsView(
  s: AppSettings,
  connection: ServiceConnection,
  remoteDeletePolicy: RemoteDeletePolicy,
): SettingsView {
  const endpoint = s.endpoint();
  const concurrency = s.uploadConcurrency();
  let cloudKeySet = false;
  try {
    cloudKeySet = s.cloudKey() !== undefined;
  } catch {
    cloudKeySet = true;
  }
  const o = connection.current();
  const down = serviceProblem(connection.state());
  const view: SettingsView['connection'] =
    o === undefined
      ? { state: 'not-configured', mode: null, baseUrl: null, error: null, givenAtStart: false }
      : o.state === 'connected'
        ? {
            state: down ? 'failed' : 'connected',
            mode: o.connection.mode,
            baseUrl: o.connection.baseUrl,
            error: down ?? null,
            givenAtStart: o.connection.given === true,
          }
        : { state: o.state, mode: o.mode, baseUrl: null, error: o.reason, givenAtStart: false };
  const applied = connection.applied();
  const restartRequired =
    applied !== undefined && (applied.endpoint !== JSON.stringify(endpoint) || applied.concurrency !== concurrency);
  return {
    endpoint,
    cloudKeySet,
    uploadConcurrency: concurrency,
    launchAtLogin: s.launchAtLogin(),
    windowClose: s.windowClose(),
    remoteDeletePolicy,
    theme: s.theme(),
    proxy: s.proxy(),
    connection: view,
    restartRequired,
  };
}
