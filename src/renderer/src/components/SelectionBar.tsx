import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import './selection-bar.css';

/** A paged list's whole match: how many items the filter matches and whether select all took them all. */
export interface SelectionMatching {
  total: number;
  all: boolean;
  /** Select all is reading the rows not loaded yet. */
  busy: boolean;
  onSelectAll: () => void;
}

/**
 * Shown while more than one item is selected: how many, the actions on them, and a way to clear the selection. Over a
 * paged list (`matching`) it says when every matching item is selected, or offers to select them all.
 */
export function SelectionBar({
  count,
  noun,
  onClear,
  matching,
  children,
}: {
  count: number;
  noun: [string, string];
  onClear: () => void;
  matching?: SelectionMatching;
  children: ReactNode;
}): React.JSX.Element | null {
  if (count < 2 && !matching?.busy) return null;
  const nounOf = (n: number): string => (n === 1 ? noun[0] : noun[1]);
  const words = (n: number): string => `${n.toLocaleString()} ${nounOf(n)}`;
  const everything = matching?.all && count === matching.total;
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection" data-testid="selection-bar">
      <span className="selection-count" data-testid="selection-count" aria-live="polite">
        {matching?.busy
          ? `Selecting all ${words(matching.total)}…`
          : everything
            ? `All ${count.toLocaleString()} matching ${nounOf(count)} are selected`
            : `${words(count)} selected`}
      </span>
      {matching && !matching.busy && !everything && matching.total > count && (
        <button type="button" className="button" onClick={matching.onSelectAll} data-testid="select-all-matching">
          Select all {words(matching.total)}
        </button>
      )}
      {children}
      <span className="spacer" />
      <button type="button" className="button" onClick={onClear} aria-label="Clear the selection">
        <X size={14} aria-hidden="true" /> Clear
      </button>
    </div>
  );
}
