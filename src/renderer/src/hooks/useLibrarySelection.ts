import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { FileView } from '../../../shared/contract/sync';
import { allPages } from '../lib/all-pages';
import { EMPTY_SELECTION, pick, selectAll, toggles, type PickKeys, type Selection } from '../lib/selection';
import { call } from '../transport';
import { useToast } from './useToast';
import { filesRequest, type FilesQuery } from './usePagedFiles';

const PLAIN: PickKeys = { shiftKey: false, ctrlKey: false, metaKey: false };
/** Rows per request while select all reads every matching file (the channel's largest page). */
const ALL_PAGE = 500;

interface State {
  s: Selection;
  files: Map<number, FileView>;
  /** Select all took every file matching the filter (not only the rows loaded), and nothing was dropped since. */
  all: boolean;
}
const NOTHING: State = { s: EMPTY_SELECTION, files: new Map(), all: false };

/**
 * The Library's selection, by file id. The list is paged: clicks and keys pick among the rows loaded, while select
 * all (Ctrl/Cmd-A, or the bar's "Select all") reads every file matching the filter from main, as a mail app selects
 * every conversation of a search. A change of filter clears it, so actions never reach files no longer shown; a
 * re-sort keeps it.
 */
export function useLibrarySelection(total: number, row: (i: number) => FileView | undefined, query: FilesQuery) {
  const [sel, setSel] = useState<State>(NOTHING);
  const [selectingAll, setSelectingAll] = useState(false);
  const generation = useRef(0);
  const toast = useToast();
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
    const byId = new Map(rows.map((f) => [f.id, f]));
    // Files picked by select all that are not loaded stay picked with what main said of them.
    const files = new Map<number, FileView>();
    for (const id of s.ids) {
      const f = byId.get(id) ?? sel.files.get(id);
      if (f) files.set(id, f);
    }
    setSel({ s, files, all: sel.all && files.size === sel.files.size });
  };
  const clear = (): void => {
    generation.current++;
    setSelectingAll(false);
    setSel(NOTHING);
  };
  const key = JSON.stringify([query.state, query.codec, query.camera, query.name]);
  useEffect(clear, [key]);
  const selectAllMatching = async (): Promise<void> => {
    const mine = ++generation.current;
    setSelectingAll(true);
    try {
      const req = filesRequest(query);
      const files = await allPages(ALL_PAGE, async (page, size) => {
        const r = await call('sync:files', { ...req, page, size });
        return { items: r.files, total: r.total };
      });
      if (mine !== generation.current) return; // cleared or filtered meanwhile
      setSel({ s: selectAll(files.map((f) => f.id)), files: new Map(files.map((f) => [f.id, f])), all: true });
    } catch (err) {
      if (mine === generation.current)
        toast({
          title: 'Could not select every matching file',
          body: err instanceof Error ? err.message : String(err),
          tone: 'bad',
        });
    } finally {
      if (mine === generation.current) setSelectingAll(false);
    }
  };
  const pickFile = (file: FileView, keys: PickKeys): void => apply((order) => pick(sel.s, order, file.id, keys));
  return {
    files: [...sel.files.values()],
    /** Every file matching the filter is selected (by select all). */
    all: sel.all,
    selectingAll,
    selectAll: selectAllMatching,
    isPicked: (f: FileView): boolean => sel.s.ids.has(f.id),
    pick: pickFile,
    clear,
    /** Ctrl/Cmd-A selects all, Space adds or drops the focused file, Escape clears; true when the key was one of them. */
    onKey: (e: KeyboardEvent, at: number): boolean => {
      const file = row(at);
      if (toggles(e) && (e.key === 'a' || e.key === 'A')) {
        e.preventDefault();
        void selectAllMatching();
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
