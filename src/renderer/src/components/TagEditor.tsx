import { X } from 'lucide-react';
import { useState } from 'react';

/** Tags as removable chips plus an input: Enter or comma adds, Backspace on an empty input removes the last. */
export function TagEditor({
  tags,
  onChange,
  label = 'Tags',
}: {
  tags: string[];
  onChange: (tags: string[]) => void;
  label?: string;
}): React.JSX.Element {
  const [draft, setDraft] = useState('');
  const add = (): void => {
    const fresh = draft
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t && !tags.includes(t));
    setDraft('');
    if (fresh.length) onChange([...tags, ...fresh].slice(0, 50));
  };
  return (
    <div className="tag-editor" data-testid="tag-editor">
      {tags.map((t) => (
        <span key={t} className="tag-chip">
          {t}
          <button
            type="button"
            className="tag-remove"
            aria-label={`Remove tag ${t}`}
            onClick={() => onChange(tags.filter((x) => x !== t))}
          >
            <X size={11} />
          </button>
        </span>
      ))}
      <input
        className="tag-input"
        aria-label={label}
        placeholder={tags.length ? 'Add tag' : 'Add tags (Enter)'}
        value={draft}
        maxLength={100}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={add}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ',') {
            e.preventDefault();
            add();
          } else if (e.key === 'Backspace' && !draft && tags.length) onChange(tags.slice(0, -1));
        }}
      />
    </div>
  );
}
