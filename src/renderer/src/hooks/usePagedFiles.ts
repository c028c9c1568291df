import { useQueries, useQuery } from '@tanstack/react-query';
import type { FileSort, FileView } from '../../../shared/contract/sync';
import { call } from '../transport';

export type FileStateFilter = 'pending' | 'skipped' | 'linked' | 'deleted' | undefined;

/** What the list shows: filtered and sorted by main in SQL, so paging stays correct. */
export interface FilesQuery {
  state: FileStateFilter;
  codec?: string;
  camera?: string;
  name?: string;
  sort?: FileSort;
  desc?: boolean;
}

const PAGE = 200;

/** The sync:files request of a query, filters and order (every page of it but the page number and size). */
export function filesRequest(query: FilesQuery) {
  return {
    state: query.state,
    codec: query.codec,
    camera: query.camera,
    name: query.name,
    sort: query.sort ?? 'added',
    desc: query.desc ?? false,
  };
}

/**
 * Files of the sync engine, paged on demand: only the pages the virtualised list shows are fetched, so 50k rows cost
 * a few requests, not one huge answer.
 */
export function usePagedFiles(query: FilesQuery, visible: { start: number; end: number }) {
  const req = filesRequest(query);
  const key = [
    'sync',
    'files',
    req.state ?? 'all',
    req.codec ?? 'any',
    req.camera ?? 'any',
    req.name ?? '',
    req.sort,
    req.desc ? 'desc' : 'asc',
  ];
  const first = useQuery({
    queryKey: [...key, 1],
    queryFn: () => call('sync:files', { page: 1, size: PAGE, ...req }),
    retry: false,
  });
  const total = first.data?.total ?? 0;
  const pages: number[] = [];
  for (let p = Math.floor(visible.start / PAGE) + 1; p <= Math.floor(Math.max(visible.end, 0) / PAGE) + 1; p++)
    if (p > 1 && (p - 1) * PAGE < total) pages.push(p);
  const rest = useQueries({
    queries: pages.map((page) => ({
      queryKey: [...key, page],
      queryFn: () => call('sync:files', { page, size: PAGE, ...req }),
      retry: false,
    })),
  });
  const byPage = new Map<number, FileView[]>();
  if (first.data) byPage.set(1, first.data.files);
  rest.forEach((q, i) => {
    const page = pages[i];
    if (q.data && page !== undefined) byPage.set(page, q.data.files);
  });
  const row = (index: number): FileView | undefined => byPage.get(Math.floor(index / PAGE) + 1)?.[index % PAGE];
  return { first, total, row };
}
