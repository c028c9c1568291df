import * as Switch from '@radix-ui/react-switch';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FolderOpen, FolderPlus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Req } from '../../../shared/contract';
import { ClipsFolderField } from '../components/ClipsFolderField';
import { DestinationRoots } from '../components/DestinationRoots';
import { THEMES, type Theme } from '../../../shared/contract/settings';
import { AddPathsDialog } from '../components/AddPathsDialog';
import { ProxySettingsCard } from '../components/ProxySettingsCard';
import { ServiceStatusLine } from '../components/ServiceBanner';
import { SemanticModelCard } from '../components/SemanticModelCard';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { Tip } from '../components/Tip';
import { useFolders, useLibraryFolders, useSettings } from '../hooks/queries';
import { call, transportKind } from '../transport';

const THEME_LABEL: Record<Theme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };
const NO_DROP: string[] = [];
const WATCH_MODE: Record<'auto' | 'on' | 'off', string> = {
  auto: 'watched for changes',
  on: 'checked for changes every few seconds (network drive)',
  off: 'watched through system events only',
};

/** Endpoint and key, watched folders, appearance, concurrency, launch at login, window close, remote delete policy. */
export function SettingsPage(): React.JSX.Element {
  const qc = useQueryClient();
  const settings = useSettings();
  const libraryFolders = useLibraryFolders();
  const libraryFolderName = (id: number | null): string | undefined =>
    id === null
      ? undefined
      : (libraryFolders.data?.folders.find((x) => x.folderId === id)?.name ?? `library folder ${id}`);
  const folders = useFolders();
  const [adding, setAdding] = useState(false);
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const save = useMutation({
    mutationFn: (req: Req<'settings:set'>) => call('settings:set', req),
    onSuccess: (view) => {
      setKey('');
      qc.setQueryData(['settings'], view);
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => call('folders:remove', { id }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['sync'] }),
  });
  const s = settings.data;
  return (
    <section className="page">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <h2 className="section-title">Watched folders</h2>
      {folders.isError && <ErrorState title="Folders are not available" error={folders.error} />}
      {folders.isLoading && <LoadingState label="Reading folders…" />}
      {folders.data && folders.data.folders.length === 0 && (
        <EmptyState icon={FolderOpen} title="No folders yet">
          <p>Add a folder with footage, or a single video, and Reelsync uploads what it finds and keeps watching it.</p>
        </EmptyState>
      )}
      {folders.data && folders.data.folders.length > 0 && (
        <ul className="folder-list" data-testid="folder-list">
          {folders.data.folders.map((f) => (
            <li key={f.id} className="folder-item">
              <FolderOpen size={16} aria-hidden="true" />
              <div className="file-main">
                <div className="mono">{f.path}</div>
                <div className="muted">
                  Files into {f.folderName ?? libraryFolderName(f.folderId) ?? 'the library’s default folder'} ·{' '}
                  {WATCH_MODE[f.polling]}
                  {f.tags.length ? ` · tags ${f.tags.join(', ')}` : ''}
                  {f.ignore.length ? ` · ignores ${f.ignore.join(', ')}` : ''}
                </div>
              </div>
              <Tip text="Stop watching (library copies stay)">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Stop watching ${f.path}`}
                  onClick={() => remove.mutate(f.id)}
                >
                  <Trash2 size={14} />
                </button>
              </Tip>
            </li>
          ))}
        </ul>
      )}
      {!folders.isError && (
        <div className="row">
          <button
            type="button"
            className="button primary"
            onClick={() => setAdding(true)}
            data-testid="settings-add-footage"
          >
            <FolderPlus size={14} aria-hidden="true" /> Add folder or file…
          </button>
          <AddPathsDialog open={adding} onOpenChange={setAdding} dropped={NO_DROP} />
        </div>
      )}

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
          <div className="field">
            <span className="field-label" data-testid="endpoint-label">
              {s.connection.givenAtStart ? 'Library when started without a server' : 'Library in use'}
            </span>
            <div className="row">
              <label className="row tight">
                <input
                  type="radio"
                  name="endpoint"
                  checked={s.endpoint.mode === 'embedded'}
                  onChange={() => save.mutate({ endpoint: { mode: 'embedded' } })}
                />{' '}
                Embedded (this computer)
              </label>
              <label className="row tight">
                <input
                  type="radio"
                  name="endpoint"
                  checked={s.endpoint.mode === 'cloud'}
                  onChange={() => url && save.mutate({ endpoint: { mode: 'cloud', url } })}
                />{' '}
                Cloud
              </label>
            </div>
          </div>
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate({ endpoint: { mode: 'cloud', url: url.trim() }, ...(key ? { cloudKey: key } : {}) });
            }}
          >
            <input
              className="input wide"
              placeholder={s.endpoint.mode === 'cloud' ? s.endpoint.url : 'https://library.example.com/serve/api/v1'}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              aria-label="Cloud URL"
            />
            <input
              className="input"
              type="password"
              autoComplete="off"
              placeholder={s.cloudKeySet ? 'Key stored · type to replace' : 'API key'}
              value={key}
              onChange={(e) => setKey(e.target.value)}
              aria-label="Cloud API key"
            />
            <button type="submit" className="button" disabled={!url.trim()}>
              Use cloud
            </button>
          </form>
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
          {s.restartRequired && (
            <div className="callout" role="status">
              A new library address or number of uploads at once applies the next time Reelsync starts.
            </div>
          )}
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
