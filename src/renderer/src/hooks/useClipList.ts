import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ClipView } from '../../../shared/contract/clips';
import { allPages } from '../lib/all-pages';
import { call } from '../transport';

const PAGE = 500;

export type ClipStateFilter = 'all' | 'ready' | 'working' | 'failed';

function matchesState(c: ClipView, f: ClipStateFilter): boolean {
  switch (f) {
    case 'all':
      return true;
    case 'ready':
      return c.state === 'ready';
    case 'failed':
      return c.state === 'failed';
    case 'working':
      return c.state === 'queued' || c.state === 'downloading' || c.state === 'cutting';
  }
}

/** Clips as the page shows them: the local full-text search when there is text (debounced), else the list; tag and state filtered. */
export function useClipList(text: string, tag: string | null, state: ClipStateFilter) {
  const [debounced, setDebounced] = useState(text.trim());
  useEffect(() => {
    const t = setTimeout(() => setDebounced(text.trim()), 200);
    return () => clearTimeout(t);
  }, [text]);
  const query = useQuery({
    queryKey: ['clips', 'list', debounced, debounced ? null : tag],
    // Every clip, page after page: the tag list, the state filter, select all and export reach all of them, not a first page.
    queryFn: (): Promise<ClipView[]> =>
      debounced
        ? allPages(PAGE, async (page, size) => {
            const { clips } = await call('clips:search', { text: debounced, limit: size, offset: (page - 1) * size });
            return { items: clips, total: Infinity };
          })
        : allPages(PAGE, async (page, size) => {
            const { clips, total } = await call('clips:list', { page, size, ...(tag ? { tag } : {}) });
            return { items: clips, total };
          }),
    placeholderData: keepPreviousData,
  });
  const clips = (query.data ?? []).filter((c) => (!tag || c.tags.includes(tag)) && matchesState(c, state));
  return { query, clips, searching: debounced !== '' };
}
