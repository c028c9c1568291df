import { z } from 'zod';

/**
 * The Library list's columns an editor may hide, with their widths in the list's grid (the same as the full template
 * in pages/library-columns.css). Name, status, poster and actions always show.
 */
export const CHOOSABLE_COLUMNS = [
  { id: 'duration', label: 'Duration', width: '72px' },
  { id: 'resolution', label: 'Resolution', width: '84px' },
  { id: 'fps', label: 'FPS', width: '40px' },
  { id: 'codec', label: 'Codec', width: '104px' },
  { id: 'camera', label: 'Camera', width: 'minmax(80px, 0.8fr)' },
  { id: 'taken', label: 'Date taken', width: '124px' },
  { id: 'size', label: 'Size', width: '60px' },
] as const;
export type ColumnId = (typeof CHOOSABLE_COLUMNS)[number]['id'];
const COLUMN_IDS = CHOOSABLE_COLUMNS.map((c) => c.id) as [ColumnId, ...ColumnId[]];

const HIDDEN_KEY = 'reelsync.library.hiddenColumns';
const hiddenSchema = z.array(z.enum(COLUMN_IDS)).max(COLUMN_IDS.length);

export function rememberedHidden(): ColumnId[] {
  try {
    const raw = globalThis.localStorage?.getItem(HIDDEN_KEY);
    const parsed = raw ? hiddenSchema.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function rememberHidden(hidden: readonly ColumnId[]): void {
  try {
    globalThis.localStorage?.setItem(HIDDEN_KEY, JSON.stringify(hidden));
  } catch {
    // Storage refused: the choice lasts while the page is open.
  }
}

/** The list's grid template without the hidden columns, or null when all show (styles.css's template applies). */
export function columnTemplate(hidden: readonly ColumnId[]): string | null {
  if (hidden.length === 0) return null;
  const facts = CHOOSABLE_COLUMNS.filter((c) => !hidden.includes(c.id)).map((c) => c.width);
  return ['88px', 'minmax(140px, 1.3fr)', ...facts, 'minmax(240px, 1.6fr)', '60px'].join(' ');
}
