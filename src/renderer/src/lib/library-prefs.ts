import { z } from 'zod';
import { FILE_SORTS, type FileSort } from '../../../shared/contract/sync';

/** The Library's sort, kept in this browser profile so leaving the page (or the app) does not forget it. */
const ORDER_KEY = 'reelsync.library.order';
const orderSchema = z.object({ sort: z.enum(FILE_SORTS), desc: z.boolean() });
export type LibraryOrder = { sort: FileSort; desc: boolean };
export const DEFAULT_ORDER: LibraryOrder = { sort: 'added', desc: false };

export function rememberedOrder(): LibraryOrder {
  try {
    const raw = globalThis.localStorage?.getItem(ORDER_KEY);
    const parsed = raw ? orderSchema.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : DEFAULT_ORDER;
  } catch {
    return DEFAULT_ORDER;
  }
}

export function rememberOrder(order: LibraryOrder): void {
  try {
    globalThis.localStorage?.setItem(ORDER_KEY, JSON.stringify(order));
  } catch {
    // Storage refused: the order lasts while the page is open.
  }
}

/**
 * The row the player was opened from and where the list was scrolled, for the way back: the Library page is rebuilt
 * when the player closes, and focus returns to that row (not to the page body) at the same scroll position.
 */
export const libraryReturn: { path: string | null; offset: number } = { path: null, offset: 0 };

/** List or grid, kept per page ("library", …) in this browser profile like the sort. */
export type PageView = 'list' | 'grid';
const viewKey = (page: string): string => `reelsync.${page}.view`;

export function rememberedView(page: string): PageView {
  try {
    return globalThis.localStorage?.getItem(viewKey(page)) === 'grid' ? 'grid' : 'list';
  } catch {
    return 'list';
  }
}

export function rememberView(page: string, view: PageView): void {
  try {
    globalThis.localStorage?.setItem(viewKey(page), view);
  } catch {
    // Storage refused: the view lasts while the page is open.
  }
}
