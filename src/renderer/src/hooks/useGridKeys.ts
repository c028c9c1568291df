import { useCallback, type KeyboardEvent, type RefObject } from 'react';

/**
 * Columns of the laid-out grid. The grid role sits on the scroll box and the CSS grid on its row inside, so count the
 * cells on the first cell's line rather than read a template from either element.
 */
export function gridColumns(grid: HTMLElement): number {
  const cells = grid.querySelectorAll<HTMLElement>('[role="gridcell"]');
  const top = cells[0]?.offsetTop;
  let n = 0;
  while (n < cells.length && cells[n]?.offsetTop === top) n++;
  return Math.max(1, n);
}

/** Arrow keys move the selection through a CSS grid (columns measured from the layout), Enter opens, Space previews, S saves. */
export function useGridKeys(opts: {
  grid: RefObject<HTMLElement | null>;
  count: number;
  index: number;
  setIndex: (i: number) => void;
  onOpen: (i: number) => void;
  onPreview: (i: number) => void;
  /** S: save the selected item (a clip). */
  onSave?: (i: number) => void;
}): (e: KeyboardEvent) => void {
  const { grid, count, index, setIndex, onOpen, onPreview, onSave } = opts;
  return useCallback(
    (e: KeyboardEvent) => {
      if (count === 0) return;
      const el = grid.current;
      const columns = el ? gridColumns(el) : 1;
      const move = (to: number): void => {
        e.preventDefault();
        const next = Math.max(0, Math.min(count - 1, to));
        setIndex(next);
        const cell = el?.querySelectorAll<HTMLElement>('[role="gridcell"]')[next];
        cell?.focus();
        cell?.scrollIntoView({ block: 'nearest' });
      };
      switch (e.key) {
        case 'ArrowRight':
          return move(index + 1);
        case 'ArrowLeft':
          return move(index - 1);
        case 'ArrowDown':
          return move(index + columns);
        case 'ArrowUp':
          return move(index - columns);
        case 'Enter':
          e.preventDefault();
          return onOpen(index);
        case ' ':
          e.preventDefault();
          return onPreview(index);
        case 's':
        case 'S':
          if (!onSave || e.metaKey || e.ctrlKey || e.altKey) return undefined;
          e.preventDefault();
          return onSave(index);
        default:
          return undefined;
      }
    },
    [grid, count, index, setIndex, onOpen, onPreview, onSave],
  );
}
