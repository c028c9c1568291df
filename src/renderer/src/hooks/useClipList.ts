import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ClipView } from '../../../shared/contract/clips';
import { call } from '../transport';

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
    queryFn: async (): Promise<ClipView[]> =>
      debounced
        ? (await call('clips:search', { text: debounced, limit: 500 })).clips
        : (await call('clips:list', { page: 1, size: 500, ...(tag ? { tag } : {}) })).clips,
    placeholderData: keepPreviousData,
  });
  const clips = (query.data ?? []).filter((c) => (!tag || c.tags.includes(tag)) && matchesState(c, state));
  return { query, clips, searching: debounced !== '' };
}
