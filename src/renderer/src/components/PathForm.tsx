import { useState } from 'react';

/** One typed folder path and a button (Settings' output and clips folders); cleared once `submit` succeeds. */
export function PathForm(p: {
  label: string;
  name: string;
  placeholder: string;
  button: string;
  pending: boolean;
  error: Error | null;
  submit: (path: string) => Promise<unknown>;
  testId?: string;
}): React.JSX.Element {
  const [path, setPath] = useState('');
  return (
    <form
      className="folder-form"
      onSubmit={(e) => {
        e.preventDefault();
        const typed = path.trim();
        // A refusal is shown from `error`; the typed path stays for the user to fix.
        if (typed)
          p.submit(typed).then(
            () => setPath(''),
            () => undefined,
          );
      }}
    >
      <label className="field wide">
        <span className="field-label">{p.label}</span>
        <input
          className="input mono"
          name={p.name}
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder={p.placeholder}
          required
        />
      </label>
      <button type="submit" className="button" disabled={p.pending} data-testid={p.testId && `${p.testId}-save`}>
        {p.button}
      </button>
      {p.error && (
        <p className="error-text" role="alert" data-testid={p.testId && `${p.testId}-error`}>
          {p.error.message}
        </p>
      )}
    </form>
  );
}
