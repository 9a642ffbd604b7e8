// The playback clock: while the VCR state is forward or backward, advance the position one
// interval per tick. Normal mode paces ticks by speed (archive seconds per wall second, so a
// tick every interval ÷ speed, pmtime §1b); Fast mode ticks every animation frame. All charts
// follow the one store position, so they stay in step by construction.
import { dash, watchDash } from '../store';

/** Milliseconds between ticks for the current state, or undefined when stopped. */
export function tickPeriodMs(s: { playState: string; vcrMode: string; intervalMs: number; speed: number }): number | undefined {
  if (s.playState === 'stopped') return undefined;
  if (s.vcrMode === 'fast') return 0;
  return Math.max(1, s.intervalMs / Math.max(1e-9, s.speed));
}

/** Starts the clock; returns a function that stops it. */
export function startPlayback(): () => void {
  let handle: number | undefined;
  let frame: number | undefined;
  let due = 0;
  const cancel = (): void => {
    if (handle !== undefined) clearTimeout(handle);
    if (frame !== undefined) cancelAnimationFrame(frame);
    handle = frame = undefined;
  };
  const schedule = (): void => {
    cancel();
    const period = tickPeriodMs(dash());
    if (period === undefined) return;
    if (period === 0) {
      frame = requestAnimationFrame(() => {
        dash().ticked();
        schedule();
      });
      return;
    }
    const now = performance.now();
    // Keep cadence across slow frames without bursting to catch up.
    due = Math.max(now, due + period);
    handle = window.setTimeout(() => {
      dash().ticked();
      schedule();
    }, due - now);
  };
  const unwatch = watchDash((s, prev) => {
    if (s.playState !== prev.playState || s.vcrMode !== prev.vcrMode || s.speed !== prev.speed || s.intervalMs !== prev.intervalMs) {
      due = performance.now();
      schedule();
    }
  });
  return () => {
    unwatch();
    cancel();
  };
}

/** Keyboard shortcuts of the time bar; ignored while typing in a field. */
export function handleTimeKey(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return false;
  const s = dash();
  switch (e.key) {
    case ' ':
      if (s.playState === 'stopped') s.pressedPlay();
      else s.pressedStop();
      return true;
    case 'ArrowRight':
      if (e.shiftKey) s.movedPosition(s.positionMs + 10 * s.intervalMs);
      else s.steppedForward();
      return true;
    case 'ArrowLeft':
      if (e.shiftKey) s.movedPosition(s.positionMs - 10 * s.intervalMs);
      else s.steppedBack();
      return true;
    case 'r':
      s.pressedReverse();
      return true;
    case 'Home':
      s.wentToStart();
      return true;
    case 'End':
      s.wentToEnd();
      return true;
    case 'Backspace':
      s.zoomedBack();
      return true;
    case '0':
      s.resetZoom();
      return true;
    case ']':
      s.changedSpeed(s.speed * 2);
      return true;
    case '[':
      s.changedSpeed(s.speed / 2);
      return true;
    case '-':
      s.changedWindow(s.windowMs * 2);
      return true;
    case '+':
    case '=':
      s.changedWindow(s.windowMs / 2);
      return true;
    default:
      return false;
  }
}
