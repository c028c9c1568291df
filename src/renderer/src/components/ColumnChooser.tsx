import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, Columns3 } from 'lucide-react';
import { CHOOSABLE_COLUMNS, type ColumnId } from '../lib/library-columns';
import './library-columns.css';

/** Which facts the Library list shows: a menu of checkable columns (the page remembers the choice). */
export function ColumnChooser({
  hidden,
  onChange,
}: {
  hidden: readonly ColumnId[];
  onChange: (hidden: ColumnId[]) => void;
}): React.JSX.Element {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="button view-switch" data-testid="column-chooser">
          <Columns3 size={14} aria-hidden="true" /> Columns
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" data-testid="column-menu">
          {CHOOSABLE_COLUMNS.map((c) => (
            <DropdownMenu.CheckboxItem
              key={c.id}
              className="menu-item"
              checked={!hidden.includes(c.id)}
              data-testid={`column-${c.id}`}
              onSelect={(e) => e.preventDefault()}
              onCheckedChange={(shown) => onChange(shown ? hidden.filter((h) => h !== c.id) : [...hidden, c.id])}
            >
              <DropdownMenu.ItemIndicator>
                <Check size={13} aria-hidden="true" />
              </DropdownMenu.ItemIndicator>
              {c.label}
            </DropdownMenu.CheckboxItem>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
