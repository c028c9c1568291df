import { FolderPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { pathsFromText } from '../lib/dropped-paths';
import { transportKind } from '../transport';
import { AddPathsDialog } from './AddPathsDialog';

const carriesText = (dt: DataTransfer | null): boolean => !!dt && (dt.types.includes('text/uri-list') || dt.types.includes('text/plain'));
const carriesFiles = (dt: DataTransfer | null): boolean => !!dt && dt.types.includes('Files');

/**
 * Drops on the window. Paths as text (or file:// URIs) are validated and queued by main. Dropped files and folders: in
 * Electron the page leaves them alone and the shell takes the file:// navigation they cause; in a browser they carry
 * no path, so the overlay says so while dragging and the drop opens "Add footage" to type or paste the path.
 */
export function DropOverlay(): React.JSX.Element {
  const [over, setOver] = useState<'paths' | 'no-path' | null>(null);
  const [dropped, setDropped] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let depth = 0;
    const handled = (dt: DataTransfer | null): boolean => carriesText(dt) || (transportKind === 'web' && carriesFiles(dt));
    const enter = (e: DragEvent): void => {
      if (!carriesText(e.dataTransfer) && !carriesFiles(e.dataTransfer)) return;
      depth++;
      setOver(transportKind === 'web' && !carriesText(e.dataTransfer) ? 'no-path' : 'paths');
    };
    const leave = (): void => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(null);
    };
    const overHandler = (e: DragEvent): void => {
      if (handled(e.dataTransfer)) e.preventDefault();
    };
    const drop = (e: DragEvent): void => {
      depth = 0;
      setOver(null);
      const dt = e.dataTransfer;
      if (!handled(dt) || !dt) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      e.preventDefault();
      const paths = pathsFromText(dt.getData('text/uri-list') || dt.getData('text/plain'));
      setDropped(paths);
      setOpen(true);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return (
    <>
      {over && (
        <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
          <FolderPlus size={36} strokeWidth={1.25} />
          {over === 'paths' ? 'Drop folders or videos to watch and sync them' : 'A browser does not say where a dropped folder lives: drop it to type or paste its path instead'}
        </div>
      )}
      <AddPathsDialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) setDropped([]);
        }}
        dropped={dropped}
      />
    </>
  );
}
