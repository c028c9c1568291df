import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useState, type KeyboardEvent, type RefObject } from 'react';
import type { FileView } from '../../../shared/contract/sync';
import { fileName } from '../lib/format';
import { durationLabel, resolutionLabel } from '../lib/media-facts';
import { canOpen, clickRow, type LibraryRowActions } from './LibraryRow';
import { PosterThumb } from './PosterThumb';
import { StatusBadge } from './StatusBadge';
import './library-grid.css';

const TILE_WIDTH = 220;
const GAP = 12;
const LINE_HEIGHT = 196;

/** One file as a tile: its poster (scrub it with the pointer), name, length, size and status. */
function LibraryTile({
  file,
  index,
  picked,
  actions,
}: {
  file: FileView;
  index: number;
  picked: boolean;
  actions: LibraryRowActions;
}): React.JSX.Element {
  const openable = canOpen(file);
  return (
    <div
      className={`library-tile${openable ? ' openable' : ''}${picked ? ' picked' : ''}`}
      data-testid="file-tile"
      data-file-index={index}
      data-path={file.path}
      data-status={file.status}
      aria-selected={picked}
      data-picked={picked}
      role="gridcell"
      tabIndex={0}
      aria-label={`${fileName(file.path)}${openable ? ', press Enter to play' : ''}`}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target === e.currentTarget && openable) {
          e.preventDefault();
          actions.open(file);
        }
      }}
      // Shift-click picks a range of files, not a range of text.
      onMouseDown={(e) => e.shiftKey && e.preventDefault()}
      onClick={(e) => clickRow(file, e, actions)}
    >
      <PosterThumb path={file.path} playable={file.status !== 'deleted' && file.codec !== null} />
      <div className="tile-name" title={file.path}>
        {fileName(file.path)}
      </div>
      <div className="tile-facts muted">
        <span className="num">{durationLabel(file.duration)}</span>
        <span className="num">{resolutionLabel(file.width, file.height)}</span>
        <StatusBadge status={file.status} />
      </div>
    </div>
  );
}

/**
 * The Library as a grid of poster tiles, virtualised by line like the list: as many tiles a line as the width holds.
 * Arrows move between tiles, Enter plays; the click rules of the list (Shift, Ctrl/Cmd) select.
 */
export function LibraryGrid({
  scroller,
  total,
  row,
  isPicked,
  actions,
  onVisible,
  onKey,
  onMoved,
}: {
  scroller: RefObject<HTMLDivElement | null>;
  total: number;
  row: (index: number) => FileView | undefined;
  isPicked: (file: FileView) => boolean;
  actions: LibraryRowActions;
  onVisible: (range: { start: number; end: number }) => void;
  /** Keys the page handles for both views (select all, Space, Escape), given the focused tile's index; true if handled. */
  onKey: (e: KeyboardEvent<HTMLDivElement>, at: number) => boolean;
  /** The keyboard moved from one tile to another (Shift held extends the selection). */
  onMoved: (from: number, to: number, e: KeyboardEvent<HTMLDivElement>) => void;
}): React.JSX.Element {
  const [width, setWidth] = useState(1000);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [scroller]);
  const columns = Math.max(1, Math.floor((width - 24 + GAP) / (TILE_WIDTH + GAP)));
  const lines = Math.ceil(total / columns);
  const focusTile = (index: number, triesLeft = 10): void => {
    const tile = scroller.current?.querySelector<HTMLElement>(`[data-file-index="${index}"]`);
    if (tile) tile.focus();
    else if (triesLeft > 0) requestAnimationFrame(() => focusTile(index, triesLeft - 1));
  };
  const virtualizer = useVirtualizer({
    count: lines,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 3,
    onChange: (v) => {
      const items = v.getVirtualItems();
      onVisible({ start: (items[0]?.index ?? 0) * columns, end: ((items.at(-1)?.index ?? 0) + 1) * columns - 1 });
    },
  });
  return (
    <div
      role="grid"
      aria-label="Library files"
      aria-multiselectable="true"
      style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      onKeyDown={(e) => {
        const at = Number(e.target instanceof HTMLElement ? e.target.dataset.fileIndex : NaN);
        if (!Number.isInteger(at) || onKey(e, at) || e.altKey || e.ctrlKey || e.metaKey) return;
        const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns };
        const to = e.key === 'Home' ? 0 : e.key === 'End' ? total - 1 : e.key in step ? at + (step[e.key] ?? 0) : null;
        if (to === null) return;
        e.preventDefault();
        const next = Math.max(0, Math.min(total - 1, to));
        virtualizer.scrollToIndex(Math.floor(next / columns), { align: 'auto' });
        focusTile(next);
        onMoved(at, next, e);
      }}
    >
      {virtualizer.getVirtualItems().map((line) => (
        <div
          key={line.key}
          role="row"
          className="virtual-row library-grid-line"
          data-index={line.index}
          style={{
            height: line.size,
            transform: `translateY(${line.start}px)`,
            gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          }}
        >
          {Array.from({ length: columns }, (_, c) => {
            const index = line.index * columns + c;
            if (index >= total) return null;
            const file = row(index);
            return file ? (
              <LibraryTile key={file.id} file={file} index={index} picked={isPicked(file)} actions={actions} />
            ) : (
              <div key={`s${index}`} className="library-tile skeleton" aria-hidden="true" />
            );
          })}
        </div>
      ))}
    </div>
  );
}
