/**
 * An `onCloseAutoFocus` handler for Radix dialogs: focus goes back to `target()` (the card the dialog came from) rather
 * than to whatever opened it (a context menu item, a button that re-rendered); Radix's default when there is none.
 */
export function returnFocusTo(target: (() => HTMLElement | null | undefined) | undefined): (e: Event) => void {
  return (e) => {
    const el = target?.();
    if (!el) return;
    e.preventDefault();
    el.focus();
  };
}
