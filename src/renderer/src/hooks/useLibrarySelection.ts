import { useEffect, useState, type KeyboardEvent } from 'react';
import type { FileView } from '../../../shared/contract/sync';
import { EMPTY_SELECTION, pick, selectAll, toggles, type PickKeys, type Selection } from '../lib/selection';

const PLAIN: PickKeys = { shiftKey: false, ctrlKey: false, metaKey: false };

/**
 * The Library's selection, by file id, over the rows loaded so far (the list is paged: Ctrl/Cmd-A takes the loaded
 * rows, which is every row up to a few hundred files). A change of filter clears it, so actions never reach files
 * that are no longer shown; a re-sort keeps it.
 */
export function useLibrarySelection(total: number, row: (i: number) => FileView | undefined, filters: unknown[]) {
  const [sel, setSel] = useState<{ s: Selection; files: Map<number, FileView> }>({
    s: EMPTY_SELECTION,
    files: new Map(),
  });
  const loaded = (): FileView[] => {
    const out: FileView[] = [];
    for (let i = 0; i < total; i++) {
      const f = row(i);
      if (f) out.push(f);
    }
    return out;
  };
  const apply = (next: (order: number[]) => Selection): void => {
    const rows = loaded();
    const s = next(rows.map((f) => f.id));
    setSel({ s, files: new Map(rows.filter((f) => s.ids.has(f.id)).map((f) => [f.id, f])) });
  };
  const clear = (): void => setSel({ s: EMPTY_SELECTION, files: new Map() });
  const key = JSON.stringify(filters);
  useEffect(clear, [key]);
  const pickFile = (file: FileView, keys: PickKeys): void => apply((order) => pick(sel.s, order, file.id, keys));
  return {
    files: [...sel.files.values()],
    isPicked: (f: FileView): boolean => sel.s.ids.has(f.id),
    pick: pickFile,
    clear,
    /** Ctrl/Cmd-A selects all, Space adds or drops the focused file, Escape clears; true when the key was one of them. */
    onKey: (e: KeyboardEvent, at: number): boolean => {
      const file = row(at);
      if (toggles(e) && (e.key === 'a' || e.key === 'A')) {
        e.preventDefault();
        apply(selectAll);
        return true;
      }
      if (e.key === ' ' && file) {
        e.preventDefault();
        pickFile(file, { ...PLAIN, ctrlKey: true });
        return true;
      }
      if (e.key === 'Escape' && sel.s.ids.size > 0) {
        e.preventDefault();
        clear();
        return true;
      }
      return false;
    },
    /** After the keyboard moved focus: Shift extends the selection from where it started. */
    moved: (from: number, to: number, e: KeyboardEvent): void => {
      if (!e.shiftKey) return;
      const start = row(from);
      const end = row(to);
      if (!start || !end) return;
      const anchored = sel.s.anchor === null ? pick(sel.s, [start.id], start.id, PLAIN) : sel.s;
      apply((order) => pick(anchored, order, end.id, { ...PLAIN, shiftKey: true }));
    },
  };
}
