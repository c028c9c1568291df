import * as Switch from '@radix-ui/react-switch';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Req } from '../../../shared/contract';
import { ClipsFolderField } from '../components/ClipsFolderField';
import { DestinationRoots } from '../components/DestinationRoots';
import { THEMES, type Theme } from '../../../shared/contract/settings';
import { ProxySettingsCard } from '../components/ProxySettingsCard';
import { ServiceStatusLine } from '../components/ServiceBanner';
import { SemanticModelCard } from '../components/SemanticModelCard';
import { ErrorState, LoadingState } from '../components/States';
import { LibraryInUse } from '../components/LibraryInUse';
import { WatchedFolders } from '../components/WatchedFolders';
import { useSettings } from '../hooks/queries';
import { call, transportKind } from '../transport';

const THEME_LABEL: Record<Theme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };

/** Endpoint and key, watched folders, appearance, concurrency, launch at login, window close, remote delete policy. */
export function SettingsPage(): React.JSX.Element {
  const qc = useQueryClient();
  const settings = useSettings();
  const save = useMutation({
    mutationFn: (req: Req<'settings:set'>) => call('settings:set', req),
    onSuccess: (view) => qc.setQueryData(['settings'], view),
  });
  const s = settings.data;
  return (
    <section className="page">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <h2 className="section-title">Watched folders</h2>
      <WatchedFolders />

      <h2 className="section-title">Output folders</h2>
      <DestinationRoots />

      <h2 className="section-title">Clips folder</h2>
      <ClipsFolderField />

      <h2 className="section-title">Semantic search</h2>
      <SemanticModelCard />

      <h2 className="section-title">Library service</h2>
      {settings.isLoading && <LoadingState label="Reading settings…" />}
      {settings.isError && <ErrorState title="Settings are not available" error={settings.error} />}
      {s && (
        <div className="settings-grid">
          {s.restartRequired && (
            <div className="callout" role="status" data-testid="restart-note">
              {s.connection.givenAtStart
                ? 'This app was started with a server given on the command line: the choice below applies when it starts without one.'
                : 'A new number of uploads at once applies the next time Reelsync starts.'}
            </div>
          )}
          <div className="field">
            <span className="field-label">Connection</span>
            <span data-testid="connection-detail">
              {s.connection.state === 'connected'
                ? s.connection.givenAtStart
                  ? `Connected to the server given at start-up, ${s.connection.baseUrl ?? ''}`
                  : `Connected to the ${s.connection.mode === 'embedded' ? 'embedded' : 'cloud'} service at ${s.connection.baseUrl ?? ''}`
                : s.connection.state === 'failed'
                  ? `Not connected: ${s.connection.error ?? ''}`
                  : (s.connection.error ?? 'Not connected')}
            </span>
          </div>
          <ServiceStatusLine />
          <LibraryInUse s={s} />
          <label className="field">
            <span className="field-label">Uploads at once</span>
            <input
              className="input small"
              type="number"
              min={1}
              max={8}
              value={s.uploadConcurrency}
              onChange={(e) =>
                save.mutate({ uploadConcurrency: Math.max(1, Math.min(8, Number(e.target.value) || 1)) })
              }
            />
          </label>
          {transportKind === 'electron' && (
            <label className="field row">
              <Switch.Root
                className="switch"
                checked={s.launchAtLogin}
                onCheckedChange={(v) => save.mutate({ launchAtLogin: v })}
                aria-label="Launch at login"
              >
                <Switch.Thumb className="switch-thumb" />
              </Switch.Root>
              Launch Reelsync at login
            </label>
          )}
          {transportKind === 'electron' && (
            <div className="field" role="radiogroup" aria-label="When the window is closed">
              <span className="field-label">When the window is closed</span>
              <label className="row tight">
                <input
                  type="radio"
                  name="window-close"
                  checked={s.windowClose === 'tray'}
                  onChange={() => save.mutate({ windowClose: 'tray' })}
                  data-testid="window-close-tray"
                />{' '}
                Keep syncing in the tray
                <span className="muted">(quits instead where this desktop has no tray)</span>
              </label>
              <label className="row tight">
                <input
                  type="radio"
                  name="window-close"
                  checked={s.windowClose === 'quit'}
                  onChange={() => save.mutate({ windowClose: 'quit' })}
                  data-testid="window-close-quit"
                />{' '}
                Quit Reelsync
              </label>
            </div>
          )}
          <div className="field" role="radiogroup" aria-label="Appearance">
            <span className="field-label">Appearance</span>
            <div className="row">
              {THEMES.map((t) => (
                <label key={t} className="row tight">
                  <input
                    type="radio"
                    name="theme"
                    checked={s.theme === t}
                    onChange={() => save.mutate({ theme: t })}
                    data-testid={`theme-${t}`}
                  />{' '}
                  {THEME_LABEL[t]}
                </label>
              ))}
            </div>
          </div>
          <div className="field" role="radiogroup" aria-label="When a watched file is deleted">
            <span className="field-label">When a watched file is deleted on disk</span>
            <label className="row tight">
              <input
                type="radio"
                name="remote-delete"
                checked={s.remoteDeletePolicy === 'keep'}
                onChange={() => save.mutate({ remoteDeletePolicy: 'keep' })}
                data-testid="policy-keep"
              />{' '}
              Keep the library copy (searchable, clips can still be cut from it)
            </label>
            <label className="row tight">
              <input
                type="radio"
                name="remote-delete"
                checked={s.remoteDeletePolicy === 'delete'}
                onChange={() => save.mutate({ remoteDeletePolicy: 'delete' })}
                data-testid="policy-delete"
              />{' '}
              Delete it from the library too
              <span className="muted">
                (applies to deletions from now on, once no other local file has the same content)
              </span>
            </label>
          </div>
          <ProxySettingsCard proxy={s.proxy} onChange={(proxy) => save.mutate({ proxy })} />
          <div className="field">
            <span className="field-label">Balance</span>
            <span className="muted">
              Your balance is kept by the library service&apos;s account. If it refuses an upload or a download for lack
              of balance, Reelsync pauses the uploads and tells you here and in the status bar.
            </span>
          </div>
          {save.isError && (
            <p className="error-text" role="alert">
              {save.error.message}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
