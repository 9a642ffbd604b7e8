// Every keyboard shortcut of the page, in one list: the `?` sheet shows it and the README
// repeats it. A new key is added here where it is handled, so the sheet never goes stale.

export interface Shortcut {
  /** The keys as shown, e.g. "Shift + ←". */
  readonly keys: readonly string[];
  readonly action: string;
  /** Where it applies. */
  readonly where: 'anywhere' | 'tab' | 'sheet';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Space'], action: 'Play / stop', where: 'anywhere' },
  { keys: ['→'], action: 'Step forward one interval', where: 'anywhere' },
  { keys: ['←'], action: 'Step back one interval', where: 'anywhere' },
  { keys: ['Shift', '→'], action: 'Forward ten intervals', where: 'anywhere' },
  { keys: ['Shift', '←'], action: 'Back ten intervals', where: 'anywhere' },
  { keys: ['r'], action: 'Play in reverse', where: 'anywhere' },
  { keys: ['Home'], action: "Put the window's left edge at the archive's start", where: 'anywhere' },
  { keys: ['End'], action: "Put the window's right edge at the archive's end", where: 'anywhere' },
  { keys: ['Backspace'], action: 'Back to the range before the last zoom', where: 'anywhere' },
  { keys: ['0'], action: 'Reset zoom (the range before the first zoom)', where: 'anywhere' },
  { keys: [']'], action: 'Double the speed', where: 'anywhere' },
  { keys: ['['], action: 'Halve the speed', where: 'anywhere' },
  { keys: ['+'], action: 'Narrow the window (zoom in)', where: 'anywhere' },
  { keys: ['−'], action: 'Widen the window (zoom out)', where: 'anywhere' },
  { keys: ['?'], action: 'Show or hide this sheet', where: 'anywhere' },
  { keys: ['Esc'], action: 'Close this sheet or an open menu', where: 'sheet' },
  { keys: ['F2'], action: 'Rename the focused tab (or double-click it)', where: 'tab' },
];

/** Input types that take no typed text: `?` on them (e.g. the position slider just dragged) is still the sheet's key. */
const NOT_TYPED = new Set(['range', 'checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'file']);

/** Whether a key event is the one that toggles the sheet (not while typing in a field). */
export function isSheetKey(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  const typing = t instanceof HTMLInputElement ? !NOT_TYPED.has(t.type) : t !== null && (t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
  if (typing) return false;
  return e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey;
}
