import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * How many of a long list's items to render: a first screenful, then `step` more each time the sentinel after the
 * last one scrolls into view, and always far enough to show the item the keyboard is on. Cards stay cheap to mount
 * (each asks for its own still) however many thousands the list holds.
 */
export function useGrowingList(length: number, step: number, focusIndex: number) {
  const [shown, setShown] = useState(step);
  const observer = useRef<IntersectionObserver | null>(null);
  const grow = useCallback(() => setShown((n) => n + step), [step]);
  const needed = Math.min(length, Math.max(shown, focusIndex + 1 + Math.floor(step / 4)));
  useEffect(() => {
    if (needed > shown) setShown(needed);
  }, [needed, shown]);
  useEffect(() => () => observer.current?.disconnect(), []);
  const sentinel = useCallback(
    (el: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!el) return;
      observer.current = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) grow();
        },
        { rootMargin: '400px' },
      );
      observer.current.observe(el);
    },
    [grow],
  );
  return { count: Math.min(length, needed), more: needed < length, sentinel };
}
