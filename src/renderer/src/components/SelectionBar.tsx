import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import './selection-bar.css';

/** Shown while more than one item is selected: how many, the actions on them, and a way to clear the selection. */
export function SelectionBar({
  count,
  noun,
  onClear,
  children,
}: {
  count: number;
  noun: [string, string];
  onClear: () => void;
  children: ReactNode;
}): React.JSX.Element | null {
  if (count < 2) return null;
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection" data-testid="selection-bar">
      <span className="selection-count" data-testid="selection-count">
        {count} {count === 1 ? noun[0] : noun[1]} selected
      </span>
      {children}
      <span className="spacer" />
      <button type="button" className="button" onClick={onClear} aria-label="Clear the selection">
        <X size={14} aria-hidden="true" /> Clear
      </button>
    </div>
  );
}
