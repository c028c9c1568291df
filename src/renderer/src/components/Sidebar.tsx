import { FolderSync, Library, Scissors, Search, Settings, UploadCloud, type LucideIcon } from 'lucide-react';
import { useClipCount, useSyncStatus } from '../hooks/queries';

export type PageId = 'library' | 'search' | 'uploads' | 'clips' | 'settings';

function count(by: Record<string, number> | undefined, ...keys: string[]): number | undefined {
  if (!by) return undefined;
  return keys.reduce((n, k) => n + (by[k] ?? 0), 0);
}

export function Sidebar({ current, onSelect }: { current: PageId; onSelect: (id: PageId) => void }): React.JSX.Element {
  const status = useSyncStatus();
  const by = status.data?.byStatus;
  const clips = useClipCount();
  const items: { id: PageId; label: string; icon: LucideIcon; count: number | undefined; hint: string }[] = [
    { id: 'library', label: 'Library', icon: Library, count: by ? Object.entries(by).reduce((n, [k, v]) => (k === 'deleted' ? n : n + v), 0) : undefined, hint: 'files in watched folders' },
    { id: 'search', label: 'Search', icon: Search, count: count(by, 'indexed'), hint: 'searchable files' },
    { id: 'uploads', label: 'Uploads', icon: UploadCloud, count: count(by, 'waiting', 'queued', 'uploading', 'indexing', 'failed'), hint: 'files still in the queue' },
    { id: 'clips', label: 'Clips', icon: Scissors, count: clips.data, hint: 'saved clips' },
    { id: 'settings', label: 'Settings', icon: Settings, count: status.data?.folders, hint: 'watched folders' },
  ];
  return (
    <nav className="sidebar" aria-label="Sections">
      <div className="brand">
        <FolderSync size={16} className="brand-mark" aria-hidden="true" />
        Reelsync
      </div>
      <ul>
        {items.map(({ id, label, icon: Icon, count: n, hint }) => (
          <li key={id}>
            <button
              type="button"
              className={id === current ? 'nav-item active' : 'nav-item'}
              aria-current={id === current ? 'page' : undefined}
              onClick={() => onSelect(id)}
              data-testid={`nav-${id}`}
            >
              <Icon size={16} aria-hidden="true" />
              <span className="nav-label">{label}</span>
              {n !== undefined && (
                <span className="nav-count" title={`${n} ${hint}`} data-testid={`count-${id}`}>
                  {n.toLocaleString()}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
