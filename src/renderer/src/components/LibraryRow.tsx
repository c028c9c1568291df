import * as ContextMenu from '@radix-ui/react-context-menu';
import { Clipboard, Play, Scissors, Trash2 } from 'lucide-react';
import type { FileView } from '../../../shared/contract/sync';
import type { UploadProgress } from '../hooks/useSyncEvents';
import { toggles, type PickKeys } from '../lib/selection';
import { bytes, fileName, folderOf } from '../lib/format';
import { codecLabel, durationLabel, fpsLabel, resolutionLabel, takenLabel, textOrNone } from '../lib/media-facts';
import { FileActionButtons, FileMenu, FileStatusCell, RevealItem, type FileActions } from './FileRow';
import { PosterThumb } from './PosterThumb';
import { Tip } from './Tip';

export interface LibraryRowActions extends FileActions {
  /** Opens the player on an indexed file. */
  open(file: FileView): void;
  copyPath(path: string): void;
  /** Opens the save-clip dialog on the whole file. */
  saveClip(file: FileView): void;
  /** Asks, then removes the file's video from the library. */
  remove(file: FileView): void;
  /** Shift or Ctrl/Cmd click: extends the selection (see lib/selection). */
  pick(file: FileView, keys: PickKeys): void;
}

/** A click on a row or tile: with Shift or Ctrl/Cmd it selects, otherwise it plays (buttons inside act on their own). */
export function clickRow(file: FileView, e: React.MouseEvent, actions: LibraryRowActions): void {
  if (e.target instanceof Element && e.target.closest('button')) return;
  if (e.shiftKey || toggles(e)) {
    e.preventDefault();
    actions.pick(file, e);
  } else if (canOpen(file)) actions.open(file);
}

/** Why a clip cannot be saved from this file, or null: clips are cut from the library's video. */
export function saveClipBlocker(file: FileView): string | null {
  if (!canOpen(file)) return 'Clips are cut from the library: this file is not in it yet.';
  if (file.duration === null || file.duration <= 0) return 'The length of this video is not known.';
  return null;
}

/** Why this file's video cannot be removed from the library now, or null. */
export function removeBlocker(file: FileView): string | null {
  // A file gone from disk can always go: with its library video, or alone when it never reached the library.
  if (file.status === 'deleted') return null;
  if (!canOpen(file)) return 'This file is not in the library.';
  if (file.status !== 'indexed' && file.status !== 'index_failed') return 'Wait until indexing ends.';
  return null;
}

/** A menu item that, when disabled, says why in a tooltip. */
function BlockableItem({
  blocker,
  onSelect,
  testId,
  children,
}: {
  blocker: string | null;
  onSelect: () => void;
  testId: string;
  children: React.ReactNode;
}): React.JSX.Element {
  const item = (
    <ContextMenu.Item className="menu-item" disabled={blocker !== null} onSelect={onSelect} data-testid={testId}>
      {children}
    </ContextMenu.Item>
  );
  return blocker === null ? item : <Tip text={blocker}>{item}</Tip>;
}

/**
 * Whether the player can open this file: it needs the library's video (the player reads its details from it). A file
 * deleted from disk whose video is in the library still opens, from the library.
 */
export function canOpen(file: FileView): boolean {
  return file.videoNo !== null;
}

/**
 * One file of the library browser: its picture, the facts an editor sorts by, its status and actions. Click or Enter
 * opens the player; right-click offers open, reveal, copy path, save clip and remove.
 */
export function LibraryRow({
  file,
  progress,
  picked,
  actions,
}: {
  file: FileView;
  progress: UploadProgress | undefined;
  /** In the selection that the selection bar's actions apply to. */
  picked: boolean;
  actions: LibraryRowActions;
}): React.JSX.Element {
  const openable = canOpen(file);
  const open = (): void => {
    if (openable) actions.open(file);
  };
  return (
    <ContextMenu.Root>
      <ContextMenu.Trigger asChild>
        <div
          className={`file-row library-row${openable ? ' openable' : ''}${picked ? ' picked' : ''}`}
          data-picked={picked}
          data-testid="file-row"
          data-path={file.path}
          data-status={file.status}
          data-codec={file.codec ?? ''}
          tabIndex={0}
          aria-label={`${fileName(file.path)}${openable ? ', press Enter to play' : ''}`}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && e.target === e.currentTarget) {
              e.preventDefault();
              open();
            }
          }}
          // Shift-click picks a range of files, not a range of text.
          onMouseDown={(e) => e.shiftKey && e.preventDefault()}
          onClick={(e) => clickRow(file, e, actions)}
        >
          <PosterThumb path={file.path} playable={file.status !== 'deleted' && file.codec !== null} />
          <div className="file-main">
            <div className="file-name" title={file.path}>
              {fileName(file.path)}
            </div>
            <div className="file-sub muted">
              {folderOf(file.path)}
              {file.duplicateOf ? ' · already in the library' : ''}
            </div>
          </div>
          <span className="fact num" data-testid="fact-duration" data-col="duration">
            {durationLabel(file.duration)}
          </span>
          <span className="fact num" data-col="resolution">
            {resolutionLabel(file.width, file.height)}
          </span>
          <span className="fact num" data-col="fps">
            {fpsLabel(file.fps)}
          </span>
          <span className="fact ellipsis" data-testid="fact-codec" data-col="codec" title={codecLabel(file.codec)}>
            {codecLabel(file.codec)}
          </span>
          <span className="fact ellipsis" title={file.camera ?? undefined} data-col="camera">
            {textOrNone(file.camera)}
          </span>
          <span className="fact ellipsis" data-col="taken" title={takenLabel(file.takenAt)}>
            {takenLabel(file.takenAt)}
          </span>
          <span className="fact num" data-col="size">
            {bytes(file.size)}
          </span>
          <FileStatusCell file={file} progress={progress} />
          <FileActionButtons file={file} actions={actions} />
        </div>
      </ContextMenu.Trigger>
      <FileMenu>
        <ContextMenu.Item className="menu-item" disabled={!openable} onSelect={open}>
          <Play size={13} aria-hidden="true" /> Play
        </ContextMenu.Item>
        <RevealItem file={file} actions={actions} />
        <ContextMenu.Item className="menu-item" onSelect={() => actions.copyPath(file.path)}>
          <Clipboard size={13} aria-hidden="true" /> Copy path
        </ContextMenu.Item>
        <ContextMenu.Separator className="menu-separator" />
        <BlockableItem blocker={saveClipBlocker(file)} onSelect={() => actions.saveClip(file)} testId="menu-save-clip">
          <Scissors size={13} aria-hidden="true" /> Save clip…
        </BlockableItem>
        <BlockableItem blocker={removeBlocker(file)} onSelect={() => actions.remove(file)} testId="menu-remove">
          <Trash2 size={13} aria-hidden="true" /> Remove from library…
        </BlockableItem>
      </FileMenu>
    </ContextMenu.Root>
  );
}
