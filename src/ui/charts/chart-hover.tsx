// The shared crosshair and the tooltip (pmchart draws a crosshair in every chart of the tab
// but reads back the cursor's Y, §1a "Point readout"; we show data). The hover store holds
// the hovered time, snapped to a sample by the chart under the pointer; every chart of the
// tab draws a line there, and the hovered chart shows a tooltip with each visible series'
// own value at that sample (its share in percent for utilization charts), never a stacked
// sum or a cursor position. DOM, so it costs nothing while the strips slide, and tests read it.
import { useHover } from '../store';
import { formatClock, formatCtime, type DisplayZone } from '../time/zone';
import { valueAt, type DisplaySeries } from './chart-series';
import type { PlotSurface } from './plot-surface';
import { formatValue } from './unit-scale';

interface CrosshairProps {
  readonly surface: PlotSurface | null;
  /** The visible window, so the line moves when it does. */
  readonly t0Ms: number;
  readonly t1Ms: number;
  readonly color: string;
}

export function Crosshair({ surface, t0Ms, t1Ms, color }: CrosshairProps) {
  const t = useHover((h) => h.timeMs);
  if (!surface || t === undefined || !(t >= t0Ms && t <= t1Ms)) return null;
  const x = surface.xOf(t);
  if (!Number.isFinite(x)) return null;
  return <div className="crosshair" data-testid="crosshair" data-time={String(t)} style={{ left: x, borderLeftColor: color }} />;
}

interface TooltipProps {
  readonly chartId: string;
  readonly surface: PlotSurface | null;
  readonly series: readonly DisplaySeries[];
  readonly percent: boolean;
  readonly zone: DisplayZone;
  readonly t0Ms: number;
  readonly t1Ms: number;
}

export function ChartTooltip({ chartId, surface, series, percent, zone, t0Ms, t1Ms }: TooltipProps) {
  const h = useHover((s) => (s.chartId === chartId ? s.timeMs : undefined));
  if (!surface || h === undefined || !(h >= t0Ms && h <= t1Ms)) return null;
  const x = surface.xOf(h);
  const area = surface.plotArea();
  if (!Number.isFinite(x)) return null;
  // Beside the crosshair, on the side with more room.
  const right = x < area.left + area.width / 2;
  const style = right ? { left: x + 12, top: area.top } : { right: area.left + area.width + 18 - x + 12, top: area.top };
  const shown = series.filter((s) => !s.hidden);
  // Shifted sources overlay other times: each row then names its own time.
  const ownTimes = shown.some((s) => s.offsetMs !== 0);
  return (
    <div className="chart-tooltip" data-testid="chart-tooltip" data-time={String(h)} style={style}>
      <div>
        <b>{formatClock(h, zone)}</b>
        {percent && <span className="units">% utilization</span>}
      </div>
      <table>
        <tbody>
          {shown.map((s) => {
            const v = valueAt(percent ? { times: s.times, values: s.drawn } : s, h);
            return (
              <tr key={s.key} data-testid="tooltip-row" data-series={s.label} data-value={Number.isNaN(v) ? '' : String(v)} data-units={s.units}>
                <td>
                  <span className="swatch" style={{ background: s.color }} />
                  {s.label}
                </td>
                <td className="value">{Number.isNaN(v) ? 'no value' : `${formatValue(v)}${percent ? '%' : ''}`}</td>
                <td className="units">{percent ? '' : s.units}</td>
                {ownTimes && (
                  <td className="own-time" data-testid="tooltip-own-time" data-time={String(h - s.offsetMs)}>
                    {formatCtime(h - s.offsetMs, zone)}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
