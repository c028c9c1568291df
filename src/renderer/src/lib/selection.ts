/**
 * A multi-selection over an ordered list, as file managers do it: a plain click picks one, Ctrl/Cmd-click adds or
 * drops one, Shift-click takes the range from the anchor (the last plain or Ctrl/Cmd click) to the clicked item.
 * Items are keyed by id so the selection survives a re-sort or a refetch; `order` is the list as shown.
 */
export interface Selection {
  readonly ids: ReadonlySet<number>;
  readonly anchor: number | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

export interface PickKeys {
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** Ctrl on Windows and Linux, Cmd on macOS: either adds to the selection. */
export function toggles(keys: PickKeys): boolean {
  return keys.ctrlKey || keys.metaKey;
}

export function pick(sel: Selection, order: readonly number[], id: number, keys: PickKeys): Selection {
  if (keys.shiftKey && sel.anchor !== null) {
    const from = order.indexOf(sel.anchor);
    const to = order.indexOf(id);
    if (from >= 0 && to >= 0) {
      const range = order.slice(Math.min(from, to), Math.max(from, to) + 1);
      // Shift with Ctrl/Cmd adds the range to what was selected; Shift alone replaces it.
      const ids = new Set(toggles(keys) ? [...sel.ids, ...range] : range);
      return { ids, anchor: sel.anchor };
    }
  }
  if (toggles(keys)) {
    const ids = new Set(sel.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id };
  }
  return { ids: new Set([id]), anchor: id };
}

export function selectAll(order: readonly number[]): Selection {
  return { ids: new Set(order), anchor: order[0] ?? null };
}

/** Drops ids no longer in the list (deleted, filtered out), so actions never act on what is not shown. */
export function keepShown(sel: Selection, order: readonly number[]): Selection {
  const shown = new Set(order);
  const ids = [...sel.ids].filter((id) => shown.has(id));
  if (ids.length === sel.ids.size) return sel;
  return { ids: new Set(ids), anchor: sel.anchor !== null && shown.has(sel.anchor) ? sel.anchor : (ids[0] ?? null) };
}

/** The selected ids in list order. */
export function selectedInOrder(sel: Selection, order: readonly number[]): number[] {
  return order.filter((id) => sel.ids.has(id));
}
