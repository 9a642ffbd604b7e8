// One time axis for the whole tab, like pmchart's status-bar axis: ticks at round times of
// the display zone across the tab's window (archive or live, whichever the tab shows). The
// chart grid measures where the charts' plot area is and passes it in, so every tick sits
// exactly over the charts' vertical grid lines (charts/time-ticks.ts, one rule for both);
// labels are centred on their tick and moved inward at the edges so none is cut. Being DOM
// text, it is also what tests read.
import { labelLeft, shiftedTicks, tickFormatter, tickStepMs } from '../charts/time-ticks';
import { shiftMs, type DisplayZone } from './zone';

/** Where the plot area is inside the axis box (CSS px). */
export interface AxisPlacement {
  readonly boxPx: number;
  readonly leftPx: number;
  readonly rightPx: number;
}

/** A label's width at the axis font (11px DejaVu Sans: digits 7 px, ':' '-' ' ' under 4 px). */
function labelPx(text: string): number {
  let w = 4;
  for (const ch of text) w += ch >= '0' && ch <= '9' ? 7 : 4;
  return w;
}

export interface AxisLabel {
  readonly t: number;
  readonly x: number;
  readonly text: string;
  readonly left: number;
  readonly w: number;
}

/** Each tick's label box; a label moved inward at an edge that would meet its neighbour gives way. */
function placeLabels(ticks: readonly { t: number; x: number; text: string }[], plotPx: number, place: AxisPlacement): AxisLabel[] {
  const out: AxisLabel[] = [];
  let prevRight = -Infinity;
  for (const k of ticks) {
    const w = labelPx(k.text);
    const left = labelLeft(k.x, w, plotPx, place.leftPx, place.rightPx);
    if (left < prevRight + 4) continue;
    prevRight = left + w;
    out.push({ ...k, left, w });
  }
  return out;
}

interface Props {
  readonly t0Ms: number;
  readonly t1Ms: number;
  readonly zone: DisplayZone;
  readonly place: AxisPlacement;
  /** 'live' or 'archive': what the tab shows (tests and styles read it). */
  readonly kind: 'live' | 'archive';
}

/**
 * The labelled ticks of a window (x and label box from the plot area's left edge): what the
 * tab's axis shows, and what the PNG export draws under the charts.
 */
export function axisLabels(t0Ms: number, t1Ms: number, zone: DisplayZone, place: AxisPlacement): AxisLabel[] {
  const plotPx = place.boxPx - place.leftPx - place.rightPx;
  if (!(Number.isFinite(t0Ms) && Number.isFinite(t1Ms) && t1Ms > t0Ms && plotPx > 0)) return [];
  const span = t1Ms - t0Ms;
  const fmt = tickFormatter(span);
  const w0 = shiftMs(t0Ms, zone);
  const w1 = shiftMs(t1Ms, zone);
  const ticks = shiftedTicks(t0Ms, t1Ms, zone, tickStepMs(span, plotPx));
  return placeLabels(ticks.map((t) => ({ t, x: ((t - w0) / (w1 - w0)) * plotPx, text: fmt(t) })), plotPx, place);
}

export function TimeAxis({ t0Ms, t1Ms, zone, place, kind }: Props) {
  const plotPx = place.boxPx - place.leftPx - place.rightPx;
  const ok = Number.isFinite(t0Ms) && Number.isFinite(t1Ms) && t1Ms > t0Ms && plotPx > 0;
  const items = axisLabels(t0Ms, t1Ms, zone, place);
  return (
    <div className="time-axis" data-testid="time-axis" data-kind={kind} data-window-start={ok ? t0Ms : undefined} data-window-end={ok ? t1Ms : undefined}>
      <div className="time-axis-inner" data-testid="time-axis-plot" style={{ left: place.leftPx, right: place.rightPx }}>
        {items.map((i) => (
          <span key={i.t} className="tick-mark" style={{ left: Math.round(i.x) }} />
        ))}
        {items.map((i) => (
          <span key={i.t} className="tick" data-testid="axis-tick" style={{ left: Math.round(i.left), width: i.w }}>
            {i.text}
          </span>
        ))}
      </div>
    </div>
  );
}
