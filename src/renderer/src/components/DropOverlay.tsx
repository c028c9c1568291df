import { FolderPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { droppedPaths } from '../lib/dropped-paths';
import { pathsForDroppedFiles, transportKind } from '../transport';
import { AddPathsDialog } from './AddPathsDialog';
import './drop-overlay.css';

const carriesText = (dt: DataTransfer | null): boolean =>
  !!dt && (dt.types.includes('text/uri-list') || dt.types.includes('text/plain'));
const carriesFiles = (dt: DataTransfer | null): boolean => !!dt && dt.types.includes('Files');

/**
 * Drops on the window open "Add footage" with every path they name in its field, to be given tags and options there
 * before Add sends them to main through sync:add-paths (main checks each one). In Electron the preload tells where each dropped file or folder lives, so a drop of many items adds
 * them all; should it give no path, the drop is left alone and the shell takes the file:// navigation it causes (one
 * item). In a browser a dropped file carries no path, so the overlay says so and the drop opens "Add footage" to type
 * or paste the path; paths dropped as text (or file:// URIs) work in both.
 */
export function DropOverlay(): React.JSX.Element {
  const [over, setOver] = useState<'paths' | 'no-path' | null>(null);
  const [dropped, setDropped] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let depth = 0;
    const handled = (dt: DataTransfer | null): boolean => carriesText(dt) || carriesFiles(dt);
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
      const paths = droppedPaths(
        pathsForDroppedFiles([...dt.files]),
        dt.getData('text/uri-list') || dt.getData('text/plain'),
      );
      // Electron with no path for the dropped files: let the shell's navigation fallback take it.
      if (transportKind === 'electron' && !paths.length && carriesFiles(dt) && !carriesText(dt)) return;
      e.preventDefault();
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
          <div className="drop-overlay-message">
            <FolderPlus size={36} strokeWidth={1.25} />
            {over === 'paths'
              ? 'Drop folders or videos to watch and sync them'
              : 'A browser does not say where a dropped folder lives: drop it to type or paste its path instead'}
          </div>
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
