import { LayoutDashboard } from 'lucide-react';

export type PageId = 'overview';

const ITEMS: { id: PageId; label: string; icon: typeof LayoutDashboard }[] = [
  { id: 'overview', label: 'Overview', icon: LayoutDashboard },
];

export function Sidebar({ current, onSelect }: { current: PageId; onSelect: (id: PageId) => void }): React.JSX.Element {
  return (
    <nav className="sidebar" aria-label="Sections">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Reelsync
      </div>
      <ul>
        {ITEMS.map(({ id, label, icon: Icon }) => (
          <li key={id}>
            <button
              type="button"
              className={id === current ? 'nav-item active' : 'nav-item'}
              aria-current={id === current ? 'page' : undefined}
              onClick={() => onSelect(id)}
            >
              <Icon size={16} aria-hidden="true" />
              {label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
