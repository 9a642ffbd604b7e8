// The time control, in pmtime's spirit but in the page (docs/pmchart-reference.md §1b): a
// position (the right edge of every chart's window), an interval (the step of play and of
// the sampling grid), a visible window, VCR state, mode and speed, bounds and the display
// zone. Positions sit on the grid anchor + k × interval so every chart, the step buttons and
// pmval at the same start and interval all agree on the sample times.
//
// Unlike pmtime, the window cannot leave the data (issue 13): its left edge never goes before
// the start bound and its right edge never past the end bound (unless the window is longer
// than the data, when it starts at the start). The interval follows the window — about one
// sample per 2 px of chart, never finer than the archive's logging interval — until the user
// types one; zooms are remembered so "back" and "reset" can undo them (Grafana's habit).
import { archiveUnionBounds, shiftedBounds } from './sources-slice';
import type { PlayState, SourceEntry, VcrMode, ZoneChoice } from './model';
import type { SliceCreator } from './slice';

/** Most points a chart draws per series; wider windows sample a multiple of the interval. */
export const MAX_POINTS = 1500;
/** pmchart's minimum visible points. */
export const MIN_POINTS = 2;
/** Chart pixels per sample when the interval follows the window. */
export const PX_PER_SAMPLE = 2;
/** Chart width assumed until the page reports one. */
export const DEFAULT_VIEW_WIDTH_PX = 1000;
/**
 * Longest default window: replaying an archive costs time in proportion to the span read,
 * so a long archive opens on its first hour (the range picker and zoom reach the rest).
 */
export const DEFAULT_WINDOW_MS = 3_600_000;
/** pmtime's speed limits, as multiples of the interval (archive seconds per wall second). */
export const SPEED_MIN_FACTOR = 0.1;
export const SPEED_MAX_FACTOR = 1000;
/** Zooms remembered for "back". */
export const ZOOM_HISTORY_MAX = 50;

/** A visible range: the right edge, the length and the interval it was drawn at. */
export interface TimeRange {
  readonly positionMs: number;
  readonly windowMs: number;
  readonly intervalMs: number;
  readonly intervalFixed: boolean;
}

export interface TimeSlice {
  /** Epoch ms of the right edge of the charts; NaN until an archive is open. */
  readonly positionMs: number;
  /** The grid's origin: the union start of the archives when first opened. */
  readonly anchorMs: number;
  /** pmtime's interval: the step of play, step buttons and the sampling grid. */
  readonly intervalMs: number;
  /** The user typed the interval: it no longer follows the window. */
  readonly intervalFixed: boolean;
  /** Visible span of every chart. */
  readonly windowMs: number;
  /** Width of the chart area in CSS px (the interval follows it). */
  readonly viewWidthPx: number;
  /**
   * A fleet tab holds the time bar on the store's history: sources opening or becoming
   * current meanwhile (the demo, still loading when the tab was opened) leave the window alone.
   */
  readonly timeHeld: boolean;
  /** Ranges before each zoom, oldest first: "back" pops one, "reset" returns to the first. */
  readonly zoomHistory: readonly TimeRange[];
  readonly playState: PlayState;
  readonly vcrMode: VcrMode;
  /** Archive seconds per wall-clock second (pmtime's Speed; default 2 × interval). */
  readonly speed: number;
  readonly zone: ZoneChoice;
  /** Narrowed bounds (pmtime's Boundaries dialog); undefined = the archives' union. */
  readonly bounds: { readonly startMs: number; readonly endMs: number } | undefined;
  /** Live: visible history length. */
  readonly liveHistoryMs: number;
  /** Live: sampling interval of every live chart. */
  readonly liveIntervalMs: number;
  readonly livePaused: boolean;

  archiveBoundsChanged(): void;
  /** A fleet tab takes (true) or gives back (false) the time bar. */
  heldTime(held: boolean): void;
  /**
   * The current source changed: when the window shows nothing of it, move to its first hour
   * (as when it opened), on a grid from its start.
   */
  focusedSource(): void;
  /**
   * An archive (or archive set) was opened and became current: the window moves to its first
   * hour, on a grid from its start, whatever it showed before (zoom history and narrowed
   * bounds are dropped: they were about other data).
   */
  enteredArchive(startMs: number, endMs: number): void;
  pressedPlay(): void;
  pressedReverse(): void;
  pressedStop(): void;
  steppedForward(): void;
  steppedBack(): void;
  choseMode(mode: VcrMode): void;
  changedSpeed(speed: number): void;
  resetSpeed(): void;
  /** The user typed an interval: it is fixed from now on; the window keeps its length. */
  changedInterval(intervalMs: number): void;
  /** The interval follows the window again. */
  freedInterval(): void;
  /** Moves the right edge (clamped so the window stays on the data). */
  movedPosition(ms: number): void;
  /** The window's left edge at the start bound (Home). */
  wentToStart(): void;
  /** The window's right edge at the end bound (End). */
  wentToEnd(): void;
  /** A new window length, keeping the right edge where the data allows. */
  changedWindow(windowMs: number): void;
  /** Shows [t0, t1] (a range picker choice): remembered for back/reset like a zoom. */
  showedRange(t0Ms: number, t1Ms: number): void;
  /** Drag-to-zoom: shows [t0, t1], remembering the range before. */
  zoomedTo(t0Ms: number, t1Ms: number): void;
  /** Back to the range before the last zoom. */
  zoomedBack(): void;
  /** Back to the range before the first zoom; without zooms, the whole of the data. */
  resetZoom(): void;
  /** The chart area's width changed (the interval follows it). */
  resizedView(widthPx: number): void;
  changedZone(zone: ZoneChoice): void;
  narrowedBounds(startMs: number, endMs: number): void;
  resetBounds(): void;
  /** One playback tick: moves one interval in the play direction; stops at a bound. */
  ticked(): void;
  changedLiveHistory(ms: number): void;
  changedLiveInterval(ms: number): void;
  toggledLivePause(): void;
}

/** Effective bounds: the narrowed ones or the archives' union. */
export function effectiveBounds(s: { bounds: TimeSlice['bounds'] } & { sources: Parameters<typeof archiveUnionBounds>[0] }): { startMs: number; endMs: number } | undefined {
  return s.bounds ?? archiveUnionBounds(s.sources);
}

/**
 * The span the range picker means by "whole archive": the narrowed bounds, else the current
 * source when it is an archive, else the union of the archives.
 */
export function focusBounds(s: { bounds: TimeSlice['bounds']; sources: readonly SourceEntry[]; currentSourceId: string | undefined }): { startMs: number; endMs: number } | undefined {
  if (s.bounds) return s.bounds;
  const cur = s.sources.find((x) => x.id === s.currentSourceId && x.status === 'ready' && x.summary?.kind === 'archive');
  return (cur && shiftedBounds(cur)) ?? archiveUnionBounds(s.sources);
}

/** Snaps a time to the grid anchor + k × interval (nearest). */
export function snapToGrid(ms: number, anchorMs: number, intervalMs: number): number {
  if (!(intervalMs > 0) || !Number.isFinite(anchorMs)) return ms;
  return anchorMs + Math.round((ms - anchorMs) / intervalMs) * intervalMs;
}

/** Round intervals in seconds a window may be sampled at (each step at most ×1.5). */
const NICE_SEC = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 40, 60, 90, 120, 180, 240, 300, 360, 600, 900, 1200, 1800, 2400, 3600, 5400, 7200, 10800, 14400, 21600, 43200, 86400];

/** The smallest round interval ≥ spanMs / points: 1 s, 10 s, 1 min, … */
export function niceInterval(spanMs: number, points: number): number {
  const raw = spanMs / points;
  const nice = NICE_SEC.find((n) => n * 1000 >= raw - 1e-9);
  return nice !== undefined ? nice * 1000 : Math.ceil(raw / 86_400_000) * 86_400_000;
}

/** A logged interval (e.g. 1000.05 ms measured) as the round value the user asked pmlogger for. */
export function roundInterval(ms: number): number {
  const nice = niceInterval(ms * 0.95, 1);
  return Math.abs(nice - ms) <= ms * 0.05 ? nice : Math.round(ms);
}

/**
 * The logging interval, rounded, of the current source when it is an archive, else the finest
 * of the ready archives; 0 when none says.
 */
export function loggingInterval(sources: readonly SourceEntry[], currentSourceId?: string): number {
  const cur = sources.find((x) => x.id === currentSourceId && x.status === 'ready' && x.summary?.kind === 'archive')?.summary;
  if (cur && cur.intervalMs > 0) return roundInterval(cur.intervalMs);
  let min = Infinity;
  for (const s of sources) if (s.status === 'ready' && s.summary?.kind === 'archive' && s.summary.intervalMs > 0) min = Math.min(min, s.summary.intervalMs);
  return Number.isFinite(min) ? roundInterval(min) : 0;
}

/**
 * The interval a window is drawn at when the user has not fixed one: about one sample per
 * PX_PER_SAMPLE px, rounded up to a nice value, never finer than the logging interval.
 */
export function autoInterval(windowMs: number, widthPx: number, loggingMs: number): number {
  const points = Math.max(MIN_POINTS, Math.floor(Math.max(1, widthPx) / PX_PER_SAMPLE));
  const nice = niceInterval(windowMs, points);
  return loggingMs > 0 && nice < loggingMs ? loggingMs : nice;
}

/**
 * The right edge that keeps [edge − window, edge] on [start, end]: at most half an interval
 * before the end (libpcp interpolates nothing at an archive's very end, pcp#433, and the
 * legends read the right edge), at least start + window (which wins when the window is longer
 * than the data), snapped to the grid anchor + k × interval inwards.
 */
export function clampEdge(ms: number, windowMs: number, b: { startMs: number; endMs: number } | undefined, anchorMs: number, intervalMs: number): number {
  let p = snapToGrid(ms, anchorMs, intervalMs);
  if (!b) return p;
  const k = (t: number): number => (t - anchorMs) / intervalMs;
  const hi = anchorMs + Math.floor(k(b.endMs) - 0.5 + 1e-9) * intervalMs;
  const lo = anchorMs + Math.ceil(k(b.startMs + windowMs) - 1e-9) * intervalMs;
  if (p > hi) p = hi;
  if (p < lo) p = lo;
  return p;
}

export function defaultSpeed(intervalMs: number): number {
  return (2 * intervalMs) / 1000;
}

export const createTimeSlice: SliceCreator<TimeSlice> = (set, get) => {
  /** Clamps and snaps a right edge into the bounds for the current window. */
  const place = (ms: number): number => {
    const s = get();
    return clampEdge(ms, s.windowMs, effectiveBounds(s), s.anchorMs, s.intervalMs);
  };
  /**
   * The longest window the data allows on the grid: from the start bound to the last grid
   * point half an interval inside the end (clampEdge's upper limit), so the right edge the
   * legends read stays on data; a longer one would be pushed past the end, where libpcp
   * returns no values.
   */
  const maxWindow = (intervalMs: number, anchorMs: number): number => {
    const b = effectiveBounds(get());
    if (!b) return Infinity;
    const hi = clampEdge(b.endMs, 0, { startMs: -Infinity, endMs: b.endMs }, anchorMs, intervalMs);
    return Math.max(MIN_POINTS * intervalMs, hi - b.startMs);
  };
  /**
   * Shows a window of `windowMs` ending near `edgeMs`: the interval follows it unless fixed,
   * the length is kept within [2 intervals, the data], the edge clamped onto the data.
   */
  const show = (edgeMs: number, windowMs: number, leftMs?: number): void => {
    const s = get();
    const b = effectiveBounds(s);
    const want = b ? Math.min(windowMs, Math.max(1, b.endMs - b.startMs)) : windowMs;
    const intervalMs = s.intervalFixed ? s.intervalMs : autoInterval(want, s.viewWidthPx, loggingInterval(s.sources, s.currentSourceId));
    // The grid starts where the archive in view starts, so samples fall where pmval -S puts them.
    const anchorMs = focusBounds({ ...s, bounds: undefined })?.startMs ?? s.anchorMs;
    // A range given by its left edge keeps it, the window made of whole intervals: rounded up,
    // or down where up would pass the end (the legend reads the right edge: keep it on data).
    let whole = Math.ceil(want / intervalMs - 1e-9) * intervalMs;
    const end = focusBounds(s)?.endMs;
    if (leftMs !== undefined && end !== undefined && leftMs + whole > end - intervalMs / 2 && leftMs < end) whole = Math.floor((end - leftMs) / intervalMs - 0.5 + 1e-9) * intervalMs;
    const w = Math.min(Math.max(MIN_POINTS * intervalMs, leftMs === undefined ? want : whole), maxWindow(intervalMs, anchorMs));
    set({ windowMs: w, anchorMs, intervalMs, ...(intervalMs !== s.intervalMs && { speed: defaultSpeed(intervalMs) }) });
    set({ positionMs: place(leftMs === undefined ? edgeMs : leftMs + w) });
  };
  const current = (): TimeRange => {
    const s = get();
    return { positionMs: s.positionMs, windowMs: s.windowMs, intervalMs: s.intervalMs, intervalFixed: s.intervalFixed };
  };
  const remember = (): void => {
    const s = get();
    if (!Number.isFinite(s.positionMs)) return;
    set({ zoomHistory: [...s.zoomHistory, current()].slice(-ZOOM_HISTORY_MAX) });
  };
  const restore = (r: TimeRange): void => {
    set({ windowMs: r.windowMs, intervalMs: r.intervalMs, intervalFixed: r.intervalFixed, speed: defaultSpeed(r.intervalMs), playState: 'stopped' });
    set({ positionMs: place(r.positionMs) });
  };
  return {
    positionMs: NaN,
    anchorMs: NaN,
    intervalMs: 1000,
    intervalFixed: false,
    windowMs: 60_000,
    viewWidthPx: DEFAULT_VIEW_WIDTH_PX,
    timeHeld: false,
    zoomHistory: [],
    playState: 'stopped',
    vcrMode: 'normal',
    speed: 2,
    zone: 'archive',
    bounds: undefined,
    liveHistoryMs: 120_000,
    liveIntervalMs: 1000,
    livePaused: false,

    archiveBoundsChanged() {
      const s = get();
      if (s.timeHeld) return;
      const b = archiveUnionBounds(s.sources);
      if (!b) return;
      if (Number.isNaN(s.positionMs)) {
        // First archive: data visible at once (unlike pmchart, §1d D9), its first hour at most.
        const w = Math.min(DEFAULT_WINDOW_MS, Math.max(1, b.endMs - b.startMs));
        show(b.startMs + w, w, b.startMs);
      } else {
        show(s.positionMs, s.windowMs);
      }
    },
    heldTime(held) {
      set({ timeHeld: held });
    },
    focusedSource() {
      const s = get();
      if (s.timeHeld) return;
      const b = focusBounds(s);
      if (!b || !Number.isFinite(s.positionMs)) return;
      if (s.positionMs > b.startMs && s.positionMs - s.windowMs < b.endMs) return;
      const w = Math.min(DEFAULT_WINDOW_MS, Math.max(1, b.endMs - b.startMs));
      set({ playState: 'stopped', zoomHistory: [] });
      show(b.startMs + w, w, b.startMs);
    },
    enteredArchive(startMs, endMs) {
      if (get().timeHeld) return;
      const w = Math.min(DEFAULT_WINDOW_MS, Math.max(1, endMs - startMs));
      set({ playState: 'stopped', zoomHistory: [], bounds: undefined });
      show(startMs + w, w, startMs);
    },
    pressedPlay() {
      if (get().vcrMode === 'step') get().steppedForward();
      else set({ playState: 'forward' });
    },
    pressedReverse() {
      if (get().vcrMode === 'step') get().steppedBack();
      else set({ playState: 'backward' });
    },
    pressedStop() {
      set({ playState: 'stopped' });
    },
    steppedForward() {
      const s = get();
      set({ playState: 'stopped', positionMs: place(s.positionMs + s.intervalMs) });
    },
    steppedBack() {
      const s = get();
      set({ playState: 'stopped', positionMs: place(s.positionMs - s.intervalMs) });
    },
    choseMode(vcrMode) {
      set({ vcrMode, playState: 'stopped' });
    },
    changedSpeed(speed) {
      const i = get().intervalMs / 1000;
      if (!Number.isFinite(speed)) return;
      set({ speed: Math.min(SPEED_MAX_FACTOR * i, Math.max(SPEED_MIN_FACTOR * i, speed)) });
    },
    resetSpeed() {
      set({ speed: defaultSpeed(get().intervalMs) });
    },
    changedInterval(intervalMs) {
      if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) return;
      const s = get();
      // Changing the interval stops play (pmtime); the window keeps its length (not its
      // number of points: 500 msec → 1 hour must not make a 12,500-day window).
      set({ intervalMs, intervalFixed: true, playState: 'stopped', speed: defaultSpeed(intervalMs) });
      show(s.positionMs, s.windowMs);
    },
    freedInterval() {
      set({ intervalFixed: false });
      const s = get();
      if (Number.isFinite(s.positionMs)) show(s.positionMs, s.windowMs);
    },
    movedPosition(ms) {
      if (!Number.isFinite(ms)) return;
      set({ positionMs: place(ms) });
    },
    wentToStart() {
      const s = get();
      const b = focusBounds(s);
      if (b) set({ positionMs: place(b.startMs + s.windowMs) });
    },
    wentToEnd() {
      const s = get();
      const b = focusBounds(s);
      // The last grid point half an interval inside the end (see clampEdge).
      if (b) set({ positionMs: place(s.anchorMs + Math.floor((b.endMs - s.anchorMs) / s.intervalMs - 0.5 + 1e-9) * s.intervalMs) });
    },
    changedWindow(windowMs) {
      const s = get();
      if (!(windowMs > 0)) return;
      show(s.positionMs, windowMs);
    },
    showedRange(t0Ms, t1Ms) {
      if (!(t1Ms > t0Ms)) return;
      remember();
      set({ playState: 'stopped' });
      // A range up to the end ("last 15 min") keeps its length and ends on the last sample.
      const fb = focusBounds(get());
      if (fb && t1Ms >= fb.endMs && t0Ms > fb.startMs) show(t1Ms, t1Ms - t0Ms);
      else show(t1Ms, t1Ms - t0Ms, t0Ms);
    },
    zoomedTo(t0Ms, t1Ms) {
      get().showedRange(t0Ms, t1Ms);
    },
    zoomedBack() {
      const h = get().zoomHistory;
      const last = h[h.length - 1];
      if (!last) return;
      set({ zoomHistory: h.slice(0, -1) });
      restore(last);
    },
    resetZoom() {
      const s = get();
      const first = s.zoomHistory[0];
      if (first) {
        set({ zoomHistory: [] });
        restore(first);
        return;
      }
      const b = focusBounds(s);
      if (b) {
        set({ playState: 'stopped' });
        show(b.endMs, b.endMs - b.startMs, b.startMs);
      }
    },
    resizedView(widthPx) {
      const s = get();
      if (!(widthPx > 0) || Math.abs(widthPx - s.viewWidthPx) < 1) return;
      set({ viewWidthPx: widthPx });
      if (!s.intervalFixed && Number.isFinite(s.positionMs)) show(s.positionMs, s.windowMs);
    },
    changedZone(zone) {
      set({ zone });
    },
    narrowedBounds(startMs, endMs) {
      if (!(endMs > startMs)) return;
      set({ bounds: { startMs, endMs } });
      const s = get();
      show(s.positionMs, s.windowMs);
    },
    resetBounds() {
      set({ bounds: undefined });
    },
    ticked() {
      const s = get();
      if (s.playState === 'stopped') return;
      const b = effectiveBounds(s);
      const next = s.positionMs + (s.playState === 'forward' ? s.intervalMs : -s.intervalMs);
      const p = place(next);
      if ((b && (next > b.endMs || next - s.windowMs < b.startMs)) || p === s.positionMs) {
        set({ playState: 'stopped' });
        return;
      }
      set({ positionMs: p });
    },
    changedLiveHistory(ms) {
      if (ms > 0) set({ liveHistoryMs: ms });
    },
    changedLiveInterval(ms) {
      if (ms >= 100) set({ liveIntervalMs: ms });
    },
    toggledLivePause() {
      set({ livePaused: !get().livePaused });
    },
  };
};
