// Which window to fetch for what is visible (Perfetto's BufferedBounds): pad half a visible
// width either side, align to the sampling grid and clamp to the source's bounds, so that
// playing and small pans re-slice data already here instead of asking the engine again.

export interface Window {
  readonly t0Ms: number;
  readonly t1Ms: number;
  readonly stepMs: number;
}

/** The step for a visible span: the interval, or a multiple of it when too many points. */
export function fetchStep(windowMs: number, intervalMs: number, maxPoints: number): number {
  const points = windowMs / intervalMs;
  return points <= maxPoints ? intervalMs : Math.ceil(points / maxPoints) * intervalMs;
}

function alignDown(ms: number, anchorMs: number, stepMs: number): number {
  return anchorMs + Math.floor((ms - anchorMs) / stepMs + 1e-9) * stepMs;
}
function alignUp(ms: number, anchorMs: number, stepMs: number): number {
  return anchorMs + Math.ceil((ms - anchorMs) / stepMs - 1e-9) * stepMs;
}

/** The visible range clamped to the bounds and aligned outwards to the grid. */
export function neededWindow(visible: { t0Ms: number; t1Ms: number }, bounds: { startMs: number; endMs: number }, anchorMs: number, stepMs: number): Window {
  const t0 = alignDown(Math.max(visible.t0Ms, bounds.startMs - stepMs), anchorMs, stepMs);
  const t1 = alignUp(Math.min(visible.t1Ms, bounds.endMs + stepMs), anchorMs, stepMs);
  return { t0Ms: t0, t1Ms: Math.max(t0, t1), stepMs };
}

/**
 * The padded window to fetch: half a visible width either side, clamped and aligned. Half,
 * not Perfetto's whole width: archive replay costs grow with the time span read, and the
 * first chart matters more than the hundredth step of play.
 */
export function paddedWindow(visible: { t0Ms: number; t1Ms: number }, bounds: { startMs: number; endMs: number }, anchorMs: number, stepMs: number): Window {
  const w = (visible.t1Ms - visible.t0Ms) / 2;
  return neededWindow({ t0Ms: visible.t0Ms - w, t1Ms: visible.t1Ms + w }, bounds, anchorMs, stepMs);
}

/** Whether `have` already holds everything `need` asks for, on the same grid. */
export function covers(have: Window, need: Window): boolean {
  return have.stepMs === need.stepMs && have.t0Ms <= need.t0Ms + 1e-6 && have.t1Ms >= need.t1Ms - 1e-6;
}

/**
 * Samples in a chart's first answer when its window is long: pmchart's default of visible
 * points. The first window of a newly opened archive is an hour (360 samples at pmlogger's
 * 10 s), six times what pmchart reads before its first frame.
 */
export const FIRST_ROWS = 60;

/**
 * The part of `need` a chart is sent first, when `need` has more than twice FIRST_ROWS
 * samples: its last FIRST_ROWS samples, on the same grid, ending at the window's right edge
 * (the position, whose values the legend shows). Undefined for a shorter window. Each sample
 * is the one the whole window has there (an extra fetch before a window's first sample gives
 * it its rate: workers/series-fetch.ts), so the whole window replaces it without a change.
 */
export function firstTail(need: Window): Window | undefined {
  const rows = Math.round((need.t1Ms - need.t0Ms) / need.stepMs) + 1;
  if (!(rows > 2 * FIRST_ROWS)) return undefined;
  return { t0Ms: need.t1Ms - (FIRST_ROWS - 1) * need.stepMs, t1Ms: need.t1Ms, stepMs: need.stepMs };
}
