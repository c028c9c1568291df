import { useToast } from './useToast';

/** How long a removal waits for an Undo before it is carried out (the service's delete cannot be taken back). */
export const REMOVE_UNDO_MS = 8_000;

export interface LaterRemoval {
  /** What goes, as the toasts name it: "harbour.mp4", "3 clips". */
  what: string;
  /** Where from, for the toasts: "from the library". */
  from: string;
  /** What stays untouched, said in the first toast: "The file on disk stays." */
  stays: string;
  /** Carries the removal out once the undo window has passed; its answer is the last toast. */
  run: () => Promise<{ title: string; body?: string; tone: 'ok' | 'bad' }>;
}

/**
 * Removal with an undo window before it: a toast with Undo for REMOVE_UNDO_MS, then `run`. Closing the app meanwhile
 * removes nothing. Used by Remove from library (one file or a selection) and by removing selected clips.
 */
export function useRemoveLater(): (r: LaterRemoval) => void {
  const toast = useToast();
  return (r) => {
    const timer = setTimeout(() => {
      r.run().then(toast, (err: unknown) =>
        toast({
          title: `Nothing was removed: ${r.what}`,
          body: err instanceof Error ? err.message : String(err),
          tone: 'bad',
        }),
      );
    }, REMOVE_UNDO_MS);
    toast({
      title: `Removing ${r.what} ${r.from}`,
      body: `In ${Math.round(REMOVE_UNDO_MS / 1000)} seconds. ${r.stays}`,
      durationMs: REMOVE_UNDO_MS,
      action: {
        label: 'Undo',
        altText: `Keep ${r.what}`,
        testId: 'undo-remove',
        run: () => {
          clearTimeout(timer);
          toast({ title: `Kept ${r.what}` });
        },
      },
    });
  };
}

/** Runs `each` on every item one after the other; says how many went and the first failure in plain words. */
export async function removeEach<T>(
  ids: readonly T[],
  each: (item: T) => Promise<unknown>,
): Promise<{ removed: number; failed: number; firstError: string | null }> {
  let removed = 0;
  let firstError: string | null = null;
  for (const id of ids) {
    try {
      await each(id);
      removed++;
    } catch (err) {
      firstError ??= err instanceof Error ? err.message : String(err);
    }
  }
  return { removed, failed: ids.length - removed, firstError };
}
