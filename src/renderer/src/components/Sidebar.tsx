import { FolderSync, Library, Scissors, Search, Settings, UploadCloud, type LucideIcon } from 'lucide-react';
import { useClipCount, useSyncStatus } from '../hooks/queries';
import { queueCounts } from '../lib/queue-counts';

export type PageId = 'library' | 'search' | 'uploads' | 'clips' | 'settings';

export function Sidebar({ current, onSelect }: { current: PageId; onSelect: (id: PageId) => void }): React.JSX.Element {
  const status = useSyncStatus();
  const by = status.data?.byStatus;
  const clips = useClipCount();
  const q = by ? queueCounts(by) : undefined;
  const items: { id: PageId; label: string; icon: LucideIcon; count: number | undefined; hint: string }[] = [
    { id: 'library', label: 'Library', icon: Library, count: q?.total, hint: 'files in watched folders' },
    { id: 'search', label: 'Search', icon: Search, count: q?.indexed, hint: 'searchable files' },
    {
      id: 'uploads',
      label: 'Uploads',
      icon: UploadCloud,
      count: q ? q.busy + q.failed : undefined,
      hint: q?.failed ? `files still in the queue, ${q.failed} of them failed` : 'files still in the queue',
    },
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
              {id === 'uploads' && q !== undefined && q.failed > 0 && (
                <span
                  className="nav-count nav-failed"
                  title={`${q.failed} failed: open Uploads to see why and retry`}
                  data-testid="count-uploads-failed"
                >
                  {q.failed.toLocaleString()} failed
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
