// The tab's time ticks, one rule for both places that draw them: the shared time axis under
// the charts (time/time-axis.tsx, labels) and every chart's strip (plot-surface.ts, vertical
// grid lines), so grid lines and labels fall on the same round wall-clock times of the
// display zone. Ticks are in zone-shifted ms (see time/zone.ts `shiftMs`).
import { shiftMs, type DisplayZone } from '../time/zone';

const STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/** Room one label needs ("MM-DD hh:mm" and a gap), CSS px. */
export const TICK_LABEL_PX = 110;

/** The smallest round step that leaves TICK_LABEL_PX between ticks across `widthPx`. */
export function tickStepMs(spanMs: number, widthPx: number): number {
  const target = Math.max(1, Math.floor(widthPx / TICK_LABEL_PX));
  return (STEPS_S.find((s) => s * 1000 * target >= spanMs) ?? 604800) * 1000;
}

/** Tick times in zone-shifted ms, multiples of `stepMs`, within [t0Ms, t1Ms] (epoch ms). */
export function shiftedTicks(t0Ms: number, t1Ms: number, zone: DisplayZone, stepMs: number): number[] {
  if (!(t1Ms > t0Ms) || !(stepMs > 0)) return [];
  const a = shiftMs(t0Ms, zone);
  const b = shiftMs(t1Ms, zone);
  const out: number[] = [];
  for (let x = Math.ceil(a / stepMs) * stepMs; x <= b && out.length < 400; x += stepMs) out.push(x);
  return out;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Tick labels of a shifted time: hh:mm:ss, or "MM-DD hh:mm" for windows over 4 hours (pmchart). */
export function tickFormatter(spanMs: number): (shifted: number) => string {
  return (v) => {
    const d = new Date(v);
    const hm = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
    if (spanMs > 4 * 3600_000) return `${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${hm}`;
    return `${hm}:${pad2(d.getUTCSeconds())}`;
  };
}

/**
 * Where a label of `labelPx` goes so it stays inside the box: centred on its tick at `x`
 * (px from the plot area's left), moved inward at the edges. `leftRoom`/`rightRoom` are the
 * box's margins beyond the plot area. Returns the label's left edge, px from the plot's left.
 */
export function labelLeft(x: number, labelPx: number, plotPx: number, leftRoom: number, rightRoom: number): number {
  const min = -leftRoom;
  const max = plotPx + rightRoom - labelPx;
  return Math.max(min, Math.min(max, x - labelPx / 2));
}
