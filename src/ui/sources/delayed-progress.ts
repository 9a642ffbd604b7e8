// When an open shows its progress: only once it has taken longer than a short delay, so a
// quick open never flashes a bar. The engine reports its phases at the start of an open
// ("reading BASE", "finding the files of URL"), before the delay has passed, so the latest
// phase is kept and shown when the delay ends; later reports are shown as they come.
import type { Progress } from '../../workers/engine-types';

export interface OpenProgress {
  readonly phase: string;
  /** 0…1, or NaN when unknown (an indeterminate bar). */
  readonly fraction: number;
}

export function toOpenProgress(p: Progress): OpenProgress {
  return { phase: p.phase, fraction: p.total > 0 ? p.done / p.total : NaN };
}

/**
 * Holds progress reports for `delayMs`, then passes the latest (or `first`, when none came)
 * and every later one to `show`. `stop()` (the open finished or failed) cancels the wait.
 */
export function delayedProgress(show: (p: OpenProgress) => void, delayMs: number, first: OpenProgress): { report(p: OpenProgress): void; stop(): void } {
  let latest = first;
  let shown = false;
  let stopped = false;
  const timer = setTimeout(() => {
    if (stopped) return;
    shown = true;
    show(latest);
  }, delayMs);
  return {
    report(p) {
      if (stopped) return;
      latest = p;
      if (shown) show(p);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
