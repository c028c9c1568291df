import { useCallback, useRef, useState } from 'react';
import type { BrowseAnswer } from '../../../shared/contract/browse';
import { call } from '../transport';

/**
 * Where the folder picker is and how it got there: each move asks main for the folder's sub-folders; a move that
 * fails (a folder that vanished, a typed path that is wrong) leaves the last good listing in place and says why.
 */
export function useFolderBrowser() {
  const [listing, setListing] = useState<BrowseAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [hidden, setHidden] = useState(false);
  const latest = useRef(0);

  const go = useCallback(
    async (path: string | undefined, o: { hidden?: boolean; keepError?: boolean } = {}): Promise<boolean> => {
      const ticket = ++latest.current;
      setLoading(true);
      try {
        const req = { ...(path === undefined ? {} : { path }), hidden: o.hidden ?? hidden };
        const answer = await call('folders:browse', req);
        if (ticket !== latest.current) return false; // a later move won
        setListing(answer);
        if (!o.keepError) setError(null);
        return true;
      } catch (err) {
        if (ticket === latest.current) setError(err instanceof Error ? err.message : String(err));
        return false;
      } finally {
        if (ticket === latest.current) setLoading(false);
      }
    },
    [hidden],
  );

  const toggleHidden = (next: boolean): void => {
    setHidden(next);
    void go(listing?.path, { hidden: next });
  };

  const reset = (): void => {
    latest.current++;
    setListing(null);
    setError(null);
    setLoading(false);
  };

  return { listing, error, loading, hidden, go, toggleHidden, reset };
}

/** The folders from the root down to `path`, each with the path that opens it: "/", "/Volumes", "/Volumes/Shoot". */
export function breadcrumbs(path: string): { name: string; path: string }[] {
  const windows = /^[A-Za-z]:[\\/]/.test(path);
  const sep = windows ? '\\' : '/';
  const parts = path.split(/[\\/]/).filter(Boolean);
  const root = windows ? `${parts.shift() ?? ''}\\` : '/';
  const crumbs = [{ name: windows ? root : 'Computer', path: root }];
  let at = root;
  for (const part of parts) {
    at = at.endsWith(sep) ? `${at}${part}` : `${at}${sep}${part}`;
    crumbs.push({ name: part, path: at });
  }
  return crumbs;
}
