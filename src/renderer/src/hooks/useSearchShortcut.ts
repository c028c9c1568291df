import { useEffect } from 'react';
import { typingIn } from '../lib/typing-in';

/** `/` (outside text fields) or Ctrl+K / Cmd+K (anywhere) calls `onSearch`: the app takes the editor to the search box. */
export function useSearchShortcut(onSearch: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const typing = typingIn(e.target);
      const slash = e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey;
      const ctrlK = (e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
      // A dialog open (saving a clip, a preview) keeps its keys.
      if ((!slash && !ctrlK) || document.querySelector('[role="dialog"]')) return;
      e.preventDefault();
      onSearch();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onSearch]);
}
