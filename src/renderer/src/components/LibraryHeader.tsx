import { ArrowDown, ArrowUp } from 'lucide-react';
import type { FileSort } from '../../../shared/contract/sync';
import { NO_HIDDEN_COLUMNS, type HiddenColumns } from './LibraryRow';

const COLUMNS: { sort: FileSort | null; label: string; className?: string }[] = [
  { sort: null, label: '' },
  { sort: 'name', label: 'Name' },
  { sort: 'duration', label: 'Duration', className: 'num' },
  { sort: 'resolution', label: 'Resolution', className: 'num' },
  { sort: 'fps', label: 'FPS', className: 'num' },
  { sort: 'codec', label: 'Codec' },
  { sort: 'camera', label: 'Camera' },
  { sort: 'taken', label: 'Date taken' },
  { sort: 'size', label: 'Size', className: 'num' },
  { sort: 'status', label: 'Status' },
  { sort: null, label: '' },
];

/** Column headers of the library browser; a click sorts by the column, a second click reverses it. */
export function LibraryHeader({
  sort,
  desc,
  onSort,
  hide = NO_HIDDEN_COLUMNS,
}: {
  sort: FileSort;
  desc: boolean;
  onSort: (sort: FileSort, desc: boolean) => void;
  hide?: HiddenColumns;
}): React.JSX.Element {
  const shown = COLUMNS.filter((c) => !(c.sort === 'camera' && hide.camera) && !(c.sort === 'taken' && hide.taken));
  return (
    <div className="library-row library-header" role="row">
      {shown.map((c, i) => {
        const key = c.sort;
        if (key === null) return <span key={i} aria-hidden="true" />;
        const active = key === sort;
        return (
          <button
            key={key}
            type="button"
            role="columnheader"
            className={`column-sort ${c.className ?? ''}${active ? ' active' : ''}`}
            aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}
            data-testid={`sort-${key}`}
            onClick={() => onSort(key, active ? !desc : false)}
          >
            {c.label}
            {active && (desc ? <ArrowDown size={12} aria-hidden="true" /> : <ArrowUp size={12} aria-hidden="true" />)}
          </button>
        );
      })}
    </div>
  );
}
