import type { AddPathOptions } from '../../../shared/contract/desktop';
import { useLibraryFolders } from '../hooks/queries';

export interface WatchOptionsText {
  folderId: string;
  tags: string;
  ignore: string;
  polling: 'auto' | 'on' | 'off';
}

export const NO_WATCH_OPTIONS: WatchOptionsText = { folderId: '', tags: '', ignore: '', polling: 'auto' };

const list = (s: string): string[] =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);

export function watchOptions(o: WatchOptionsText): AddPathOptions {
  return {
    folderId: o.folderId ? Number(o.folderId) : undefined,
    tags: list(o.tags),
    ignore: list(o.ignore),
    polling: o.polling,
  };
}

/** Where newly watched footage is filed, its tags, what it skips and how changes are noticed. */
export function WatchOptionsFields({
  value,
  onChange,
}: {
  value: WatchOptionsText;
  onChange: (v: WatchOptionsText) => void;
}): React.JSX.Element {
  const libraryFolders = useLibraryFolders();
  const set = (patch: Partial<WatchOptionsText>): void => onChange({ ...value, ...patch });
  return (
    <div className="folder-form">
      <label className="field">
        <span className="field-label">File into</span>
        <select
          className="input"
          value={value.folderId}
          onChange={(e) => set({ folderId: e.target.value })}
          aria-label="Library folder to file the footage into"
          data-testid="folder-library-folder"
        >
          <option value="">The library's default folder</option>
          {(libraryFolders.data?.folders ?? []).map((f) => (
            <option key={f.folderId} value={String(f.folderId)}>
              {f.name} ({f.videoCount} {f.videoCount === 1 ? 'video' : 'videos'})
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Tags</span>
        <input
          className="input"
          value={value.tags}
          onChange={(e) => set({ tags: e.target.value })}
          placeholder="shoot-42, drone"
        />
      </label>
      <label className="field">
        <span className="field-label">Ignore</span>
        <input
          className="input"
          value={value.ignore}
          onChange={(e) => set({ ignore: e.target.value })}
          placeholder="**/proxies/**, *.tmp"
        />
      </label>
      <label className="field">
        <span className="field-label">Watching</span>
        <select
          className="input"
          value={value.polling}
          onChange={(e) => set({ polling: e.target.value === 'on' ? 'on' : e.target.value === 'off' ? 'off' : 'auto' })}
        >
          <option value="auto">Automatic</option>
          <option value="on">Polling (network drives)</option>
          <option value="off">File events only</option>
        </select>
      </label>
    </div>
  );
}
