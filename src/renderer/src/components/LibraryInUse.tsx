import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Req } from '../../../shared/contract';
import type { SettingsView } from '../../../shared/contract/settings';
import { useToast } from '../hooks/useToast';
import { call } from '../transport';

/**
 * Settings ▸ Library in use. A cloud address and key are tried with a real call before anything changes, a failure is
 * said in plain words beside the form, and a library that works is used at once (the connection line follows).
 */
export function LibraryInUse({ s }: { s: SettingsView }): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const use = useMutation({
    mutationFn: (req: Req<'settings:use-library'>) => call('settings:use-library', req),
    onSuccess: (view) => {
      setKey('');
      qc.setQueryData(['settings'], view);
      void qc.invalidateQueries();
      toast({
        title: view.connection.mode === 'cloud' ? 'Using the cloud library' : 'Using the embedded library',
        body: view.connection.baseUrl ?? undefined,
        tone: 'ok',
      });
    },
  });
  // The radio shows the library in use, not a choice still being tried.
  const inUse = s.connection.givenAtStart ? s.endpoint.mode : (s.connection.mode ?? s.endpoint.mode);
  const target = use.isPending ? use.variables : undefined;
  return (
    <>
      <div className="field">
        <span className="field-label" data-testid="endpoint-label">
          {s.connection.givenAtStart ? 'Library when started without a server' : 'Library in use'}
        </span>
        <div className="row" role="radiogroup" aria-label="Library in use">
          <label className="row tight">
            <input
              type="radio"
              name="endpoint"
              checked={inUse === 'embedded'}
              disabled={use.isPending}
              onChange={() => use.mutate({ mode: 'embedded' })}
              data-testid="use-embedded"
            />{' '}
            Embedded (this computer)
          </label>
          <label className="row tight">
            <input
              type="radio"
              name="endpoint"
              checked={inUse === 'cloud'}
              disabled={use.isPending || (s.endpoint.mode !== 'cloud' && !url.trim())}
              onChange={() =>
                use.mutate({ mode: 'cloud', url: url.trim() || (s.endpoint.mode === 'cloud' ? s.endpoint.url : '') })
              }
              data-testid="use-cloud-radio"
            />{' '}
            Cloud
          </label>
        </div>
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          use.mutate({ mode: 'cloud', url: url.trim(), ...(key.trim() ? { key: key.trim() } : {}) });
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
        <button type="submit" className="button" disabled={!url.trim() || use.isPending} data-testid="use-cloud">
          {use.isPending && target?.mode === 'cloud' ? 'Trying…' : 'Try and use cloud'}
        </button>
      </form>
      {use.isPending && (
        <p className="muted" role="status" data-testid="library-switching">
          {target?.mode === 'cloud'
            ? `Trying ${target.url} with the key… nothing changes unless it answers.`
            : 'Starting the embedded library…'}
        </p>
      )}
      {use.isError && (
        <p className="error-text" role="alert" data-testid="library-switch-error">
          {use.error.message}
        </p>
      )}
    </>
  );
}
