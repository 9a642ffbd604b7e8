// One requestAnimationFrame for every chart's expensive work. Charts ask for a frame when
// their strip must be redrawn (new data, style, size, or a window that left the strip); the
// loop redraws on-screen charts first and stops for this frame once a time budget is spent
// (always at least one), so a tab of many charts never stalls a whole frame on redraws while
// playing: a chart waiting its turn keeps scrolling its old strip meanwhile. Live charts are
// the exception: their redraws come once per sample, all at once, and spreading them over
// frames would only composite the page once more per chart left over (in Chromium that
// costs more than the redraws themselves), so they are all redrawn in the same frame.

/** Something the loop can redraw. */
export interface FrameClient {
  /** Whether the chart can be seen (off-screen charts wait until they are). */
  readonly onScreen: boolean;
  /** Redrawn in the frame it is due, whatever the budget (live charts). */
  readonly together?: boolean;
  /** Does the expensive redraw. */
  redraw(): void;
}

/** Redraw time per frame after which the rest waits for the next frame (ms). */
const BUDGET_MS = 12;

const waiting = new Set<FrameClient>();
let frame: number | undefined;

function run(): void {
  frame = undefined;
  const began = performance.now();
  const order = [...waiting].filter((c) => c.onScreen);
  let done = 0;
  for (const c of order) {
    if (!c.together && done > 0 && performance.now() - began > BUDGET_MS) continue;
    waiting.delete(c);
    c.redraw();
    done++;
  }
  if ([...waiting].some((c) => c.onScreen)) request();
}

function request(): void {
  frame ??= requestAnimationFrame(run);
}

/** Queues a redraw of `c` in a coming frame (once, however often it is asked). */
export function requestRedraw(c: FrameClient): void {
  waiting.add(c);
  if (c.onScreen) request();
}

/** Forgets `c` (disposed). */
export function cancelRedraw(c: FrameClient): void {
  waiting.delete(c);
}

/** A chart came on screen: run its pending redraw. */
export function wake(c: FrameClient): void {
  if (waiting.has(c) && c.onScreen) request();
}
