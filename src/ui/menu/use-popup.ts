// What every pop-up of the header and time bar does: a press outside it closes it, and Escape
// closes it and gives focus back to the button that opened it (keyboard users stay put).
import { useEffect, type KeyboardEvent, type RefObject } from 'react';

/**
 * Closes the pop-up rooted at `root` on a pointer press outside it while `open`. Returns the
 * root's keydown handler for Escape, which calls `closeAndRefocus`.
 */
export function usePopup(open: boolean, root: RefObject<HTMLElement | null>, close: () => void, closeAndRefocus: () => void): (e: KeyboardEvent) => void {
  useEffect(() => {
    if (!open) return undefined;
    const onDown = (e: PointerEvent): void => {
      if (root.current && !root.current.contains(e.target as Node)) close();
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, root, close]);
  return (e) => {
    if (e.key === 'Escape' && open) {
      e.stopPropagation();
      closeAndRefocus();
    }
  };
}
