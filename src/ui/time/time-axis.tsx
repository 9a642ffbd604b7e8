// One time axis for the whole tab, like pmchart's status-bar axis: ticks at round times of
// the display zone across the visible window, aligned with the charts' plot area (the same
// left/right margins as the ECharts grid). Being DOM text, it is also what tests read.
import { tickFormatter } from '../charts/chart-option';
import { shiftMs, type DisplayZone } from './zone';

const STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/** Tick times (epoch ms) at round wall-clock times of the zone, about `target` of them. */
export function axisTicks(t0Ms: number, t1Ms: number, zone: DisplayZone, target = 8): number[] {
  const span = t1Ms - t0Ms;
  if (!(span > 0)) return [];
  const stepMs = (STEPS_S.find((s) => (s * 1000 * target) >= span) ?? 604800) * 1000;
  const a = shiftMs(t0Ms, zone);
  const b = shiftMs(t1Ms, zone);
  const out: number[] = [];
  for (let x = Math.ceil(a / stepMs) * stepMs; x <= b && out.length < 50; x += stepMs) out.push(x);
  // Back to epoch ms, via the offset at the shifted time.
  return out.map((x) => x - zone.offsetMinutes(x) * 60_000);
}

export function TimeAxis({ t0Ms, t1Ms, zone }: { t0Ms: number; t1Ms: number; zone: DisplayZone }) {
  if (!Number.isFinite(t0Ms) || !Number.isFinite(t1Ms) || t1Ms <= t0Ms) return null;
  const fmt = tickFormatter(t1Ms - t0Ms);
  return (
    <div className="time-axis" data-testid="time-axis">
      <div className="time-axis-inner">
        {axisTicks(t0Ms, t1Ms, zone).map((t) => (
          <span key={t} className="tick" data-testid="axis-tick" style={{ left: `${(100 * (t - t0Ms)) / (t1Ms - t0Ms)}%` }}>
            {fmt(shiftMs(t, zone))}
          </span>
        ))}
      </div>
      <span className="time-axis-zone">{zone.label}</span>
    </div>
  );
}
