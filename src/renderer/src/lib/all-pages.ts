/**
 * Every item of a paged list, page after page until `total` is reached (or a page comes back short): what "select
 * all" needs when the screen holds only the pages scrolled to. Pages are asked one at a time, in order.
 */
export async function allPages<T>(
  size: number,
  fetchPage: (page: number, size: number) => Promise<{ items: T[]; total: number }>,
): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await fetchPage(page, size);
    out.push(...items);
    if (items.length < size || out.length >= total) return out;
  }
}
