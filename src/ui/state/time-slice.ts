// The time control, in pmtime's spirit but in the page (docs/pmchart-reference.md §1b): a
// position (the right edge of every chart's window), an interval (the step of play and of
// the sampling grid), a visible window, VCR state, mode and speed, bounds and the display
// zone. Positions sit on the grid anchor + k × interval so every chart, the step buttons and
// pmval at the same start and interval all agree on the sample times.
import { archiveUnionBounds } from './sources-slice';
import type { PlayState, VcrMode, ZoneChoice } from './model';
import type { SliceCreator } from './slice';

/** Most points a chart draws per series; wider windows sample a multiple of the interval. */
export const MAX_POINTS = 1500;
/** pmchart's minimum visible points. */
export const MIN_POINTS = 2;
/** Default visible points when the archive is long (pmchart's default is 60; we show more). */
export const DEFAULT_POINTS = 600;
/**
 * Longest default window: replaying an archive costs time in proportion to the span read,
 * so a long archive opens on its first hour (the slider and zoom reach the rest).
 */
export const DEFAULT_WINDOW_MS = 3_600_000;
/** pmtime's speed limits, as multiples of the interval (archive seconds per wall second). */
export const SPEED_MIN_FACTOR = 0.1;
export const SPEED_MAX_FACTOR = 1000;

export interface TimeSlice {
  /** Epoch ms of the right edge of the charts; NaN until an archive is open. */
  readonly positionMs: number;
  /** The grid's origin: the union start of the archives when first opened. */
  readonly anchorMs: number;
  /** pmtime's interval: the step of play, step buttons and the sampling grid. */
  readonly intervalMs: number;
  /** Visible span of every chart. */
  readonly windowMs: number;
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
  /**
   * An archive (or archive set) became current: the grid, interval and window are made for
   * its span and the position moves into it, as when it is the first one opened.
   */
  enteredArchive(startMs: number, endMs: number, loggedIntervalMs: number): void;
  pressedPlay(): void;
  pressedReverse(): void;
  pressedStop(): void;
  steppedForward(): void;
  steppedBack(): void;
  choseMode(mode: VcrMode): void;
  changedSpeed(speed: number): void;
  resetSpeed(): void;
  changedInterval(intervalMs: number): void;
  movedPosition(ms: number): void;
  changedWindow(windowMs: number): void;
  zoomedTo(t0Ms: number, t1Ms: number): void;
  resetZoom(): void;
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

/** Snaps a time to the grid anchor + k × interval (nearest). */
export function snapToGrid(ms: number, anchorMs: number, intervalMs: number): number {
  if (!(intervalMs > 0) || !Number.isFinite(anchorMs)) return ms;
  return anchorMs + Math.round((ms - anchorMs) / intervalMs) * intervalMs;
}

/** A "nice" interval for a span when the archive does not say: 1 s, 10 s, 1 min, … */
export function niceInterval(spanMs: number, points: number): number {
  const raw = spanMs / points;
  const nice = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400].map((s) => s * 1000);
  return nice.find((n) => n >= raw) ?? 86400_000;
}

/** A logged interval (e.g. 1000.05 ms measured) as the round value the user asked pmlogger for. */
export function roundInterval(ms: number): number {
  const nice = niceInterval(ms * 0.95, 1);
  return Math.abs(nice - ms) <= ms * 0.05 ? nice : Math.round(ms);
}

export function defaultSpeed(intervalMs: number): number {
  return (2 * intervalMs) / 1000;
}

export const createTimeSlice: SliceCreator<TimeSlice> = (set, get) => {
  /** Clamps and snaps a position into the bounds. */
  const place = (ms: number): number => {
    const s = get();
    const b = effectiveBounds(s);
    let p = snapToGrid(ms, s.anchorMs, s.intervalMs);
    if (b) {
      const k = (t: number): number => (t - s.anchorMs) / s.intervalMs;
      if (p > b.endMs) p = s.anchorMs + Math.floor(k(b.endMs) + 1e-9) * s.intervalMs;
      if (p < b.startMs) p = s.anchorMs + Math.ceil(k(b.startMs) - 1e-9) * s.intervalMs;
    }
    return p;
  };
  return {
    positionMs: NaN,
    anchorMs: NaN,
    intervalMs: 1000,
    windowMs: 60_000,
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
      const b = archiveUnionBounds(s.sources);
      if (!b) return;
      if (Number.isNaN(s.positionMs)) {
        // First archive: data visible at once (unlike pmchart, §1d D9).
        const first = s.sources.find((x) => x.status === 'ready' && x.summary?.kind === 'archive')?.summary;
        get().enteredArchive(b.startMs, b.endMs, first?.intervalMs ?? 0);
      } else {
        set({ positionMs: place(s.positionMs) });
      }
    },
    enteredArchive(startMs, endMs, loggedIntervalMs) {
      const span = Math.max(1, endMs - startMs);
      const intervalMs = loggedIntervalMs > 0 ? Math.max(roundInterval(loggedIntervalMs), niceInterval(span, MAX_POINTS)) : niceInterval(span, DEFAULT_POINTS);
      const windowMs = Math.max(MIN_POINTS * intervalMs, Math.min(Math.ceil(span / intervalMs) * intervalMs, DEFAULT_POINTS * intervalMs, Math.floor(DEFAULT_WINDOW_MS / intervalMs) * intervalMs));
      set({ anchorMs: startMs, intervalMs, windowMs, speed: defaultSpeed(intervalMs), playState: 'stopped', bounds: undefined });
      // One interval short of the end: libpcp interpolates nothing at the very last instant
      // of an archive (pcp#433), and an empty legend is a poor first sight.
      set({ positionMs: place(Math.min(startMs + windowMs, endMs - intervalMs)) });
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
      if (!(intervalMs > 0)) return;
      const s = get();
      const points = s.windowMs / s.intervalMs;
      // Changing the interval stops play (pmtime) and keeps the number of visible points.
      set({ intervalMs, playState: 'stopped', speed: defaultSpeed(intervalMs), windowMs: Math.max(MIN_POINTS, Math.round(points)) * intervalMs });
      set({ positionMs: place(s.positionMs) });
    },
    movedPosition(ms) {
      if (!Number.isFinite(ms)) return;
      set({ positionMs: place(ms) });
    },
    changedWindow(windowMs) {
      const s = get();
      set({ windowMs: Math.max(MIN_POINTS * s.intervalMs, windowMs) });
    },
    zoomedTo(t0Ms, t1Ms) {
      const s = get();
      if (!(t1Ms > t0Ms)) return;
      set({ playState: 'stopped', windowMs: Math.max(MIN_POINTS * s.intervalMs, t1Ms - t0Ms) });
      set({ positionMs: place(t1Ms) });
    },
    resetZoom() {
      const s = get();
      const b = effectiveBounds(s);
      const span = b ? Math.ceil((b.endMs - b.startMs) / s.intervalMs) * s.intervalMs : s.windowMs;
      set({ windowMs: Math.max(MIN_POINTS * s.intervalMs, Math.min(span, DEFAULT_POINTS * s.intervalMs)) });
    },
    changedZone(zone) {
      set({ zone });
    },
    narrowedBounds(startMs, endMs) {
      if (!(endMs > startMs)) return;
      set({ bounds: { startMs, endMs } });
      set({ positionMs: place(get().positionMs) });
    },
    resetBounds() {
      set({ bounds: undefined });
    },
    ticked() {
      const s = get();
      if (s.playState === 'stopped') return;
      const b = effectiveBounds(s);
      const next = s.positionMs + (s.playState === 'forward' ? s.intervalMs : -s.intervalMs);
      if (b && (next > b.endMs || next < b.startMs)) {
        set({ playState: 'stopped' });
        return;
      }
      set({ positionMs: place(next) });
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
