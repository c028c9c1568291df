import type { SettingsView } from '../../shared/contract/settings';
import { AppError } from '../../shared/errors';
import type { ServiceConnection } from '../connection';
import type { EventBus } from '../events';
import type { HandlerMap } from '../ipc/registry';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { DeletePolicy } from '../sync';
import type { AppSettings } from './app-settings';
import { probeLibrary } from './library-probe';
import { settingsView } from './view';

export interface SettingsHandlerDeps {
  settings: () => AppSettings;
  db: () => Db;
  connection: ServiceConnection;
  events: EventBus;
  /** The remote delete policy changed: apply it now (the running deleter reconciles). */
  remoteDeleteChanged: () => void;
  /** Reconnects the app to the library the settings now name (sync, clips and downloads follow). */
  switchLibrary: () => Promise<void>;
  logger: Logger;
}

/** settings:get and settings:set; every change is announced with `settings:changed`. */
export function settingsHandlers(d: SettingsHandlerDeps) {
  const view = (): SettingsView => settingsView(d.settings(), d.connection, new DeletePolicy(d.db()).get());
  return {
    'settings:get': () => view(),
    'settings:set': (req) => {
      const s = d.settings();
      if (req.endpoint) s.setEndpoint(req.endpoint);
      if (req.cloudKey !== undefined) s.setCloudKey(req.cloudKey.trim());
      if (req.uploadConcurrency !== undefined) s.setUploadConcurrency(req.uploadConcurrency);
      if (req.launchAtLogin !== undefined) s.setLaunchAtLogin(req.launchAtLogin);
      if (req.windowClose !== undefined) s.setWindowClose(req.windowClose);
      if (req.theme !== undefined) s.setTheme(req.theme);
      if (req.proxy !== undefined) s.setProxy(req.proxy);
      if (req.remoteDeletePolicy !== undefined) {
        new DeletePolicy(d.db()).set(req.remoteDeletePolicy);
        d.remoteDeleteChanged();
      }
      const changed = view();
      d.events.emit('settings:changed', changed);
      return changed;
    },
    'settings:use-library': async (req) => {
      const s = d.settings();
      if (req.mode === 'cloud') {
        const key = req.key?.trim() || s.cloudKey();
        if (!key) throw new AppError('bad_request', 'Give the library’s API key: nothing was changed.');
        const url = await probeLibrary(req.url, key, d.logger);
        s.setEndpoint({ mode: 'cloud', url });
        if (req.key?.trim()) s.setCloudKey(req.key.trim());
      } else {
        s.setEndpoint({ mode: 'embedded' });
      }
      // A server given at start-up stays in use; the choice applies when the app starts without one.
      const current = d.connection.current();
      if (!(current?.state === 'connected' && current.connection.given)) await d.switchLibrary();
      const changed = view();
      d.events.emit('settings:changed', changed);
      return changed;
    },
  } satisfies HandlerMap;
}
