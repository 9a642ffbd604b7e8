// Messages for the user that belong to no one source or chart: a view file's errors (in
// pmchart's words), what a link or view could not restore, export failures. A small external
// store outside the dashboard state; notices-list.tsx shows them under the header until
// dismissed. Never a modal: the dashboard stays usable (pmchart pops up pmquery dialogs).
import { useSyncExternalStore } from 'react';

export interface Notice {
  readonly id: number;
  readonly kind: 'error' | 'warning' | 'info';
  readonly text: string;
  /** More lines, shown on demand (e.g. libpcp's full diagnostics). */
  readonly details?: string;
}

let notices: readonly Notice[] = [];
let serial = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export function notify(kind: Notice['kind'], text: string, details?: string): void {
  notices = [...notices, { id: ++serial, kind, text, details }];
  emit();
}

export function dismiss(id: number): void {
  notices = notices.filter((n) => n.id !== id);
  emit();
}

export function useNotices(): readonly Notice[] {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => notices,
  );
}
