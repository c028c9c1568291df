import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FolderPlus } from 'lucide-react';
import { useState } from 'react';
import { call } from '../transport';
import { useLibraryFolders } from '../hooks/queries';
import { useToast } from '../hooks/useToast';

const list = (s: string): string[] => s.split(/[,\n]/).map((x) => x.trim()).filter(Boolean);

/** Adds a watched folder by path, with its library folder, tags, ignore patterns and polling mode. */
export function FolderForm(): React.JSX.Element {
  const qc = useQueryClient();
  const toast = useToast();
  const [path, setPath] = useState('');
  const [folderId, setFolderId] = useState('');
  const [tags, setTags] = useState('');
  const [ignore, setIgnore] = useState('');
  const [polling, setPolling] = useState<'auto' | 'on' | 'off'>('auto');
  const libraryFolders = useLibraryFolders();
  const add = useMutation({
    mutationFn: () =>
      call('folders:add', {
        path: path.trim(),
        folderId: folderId.trim() ? Number(folderId) : undefined,
        tags: list(tags),
        ignore: list(ignore),
        polling,
      }),
    onSuccess: (f) => {
      setPath('');
      setTags('');
      setIgnore('');
      setFolderId('');
      toast({ title: 'Folder added', body: `Watching ${f.path}`, tone: 'ok' });
      return qc.invalidateQueries({ queryKey: ['sync'] });
    },
  });
  return (
    <form
      className="folder-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (path.trim()) add.mutate();
      }}
    >
      <label className="field wide">
        <span className="field-label">Folder path</span>
        <input className="input mono" name="folder-path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/Volumes/Card/DCIM or D:\Footage" required />
      </label>
      <label className="field">
        <span className="field-label">File into</span>
        <select className="input" value={folderId} onChange={(e) => setFolderId(e.target.value)} aria-label="Library folder to file the footage into" data-testid="folder-library-folder">
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
        <input className="input" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="shoot-42, drone" />
      </label>
      <label className="field">
        <span className="field-label">Ignore</span>
        <input className="input" value={ignore} onChange={(e) => setIgnore(e.target.value)} placeholder="**/proxies/**, *.tmp" />
      </label>
      <label className="field">
        <span className="field-label">Polling</span>
        <select className="input" value={polling} onChange={(e) => setPolling(e.target.value === 'on' ? 'on' : e.target.value === 'off' ? 'off' : 'auto')}>
          <option value="auto">Automatic</option>
          <option value="on">On (network drives)</option>
          <option value="off">Off</option>
        </select>
      </label>
      <button type="submit" className="button primary" disabled={add.isPending || !path.trim()}>
        <FolderPlus size={14} aria-hidden="true" /> Watch folder
      </button>
      {add.isError && (
        <p className="error-text full" role="alert">
          {add.error.message}
        </p>
      )}
    </form>
  );
}
