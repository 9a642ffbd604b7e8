// Readies the chart code while the page waits for its first archive. V8 compiles a function
// on its first call, and ECharts with zrender is most of the page's code: the first charts
// drawn after a drop paid for that compilation (and for zrender's first canvas and text
// measurements) on the way to the first values (issue 19 item 5). Drawing one strip of each
// kind of series the Overview has (stacked area, line, bar) once, off screen, in idle time,
// moves that cost before the drop; the strip is thrown away at once.
import { buildOption } from './chart-option';
import type { DisplaySeries } from './chart-series';
import { StripCanvas } from './echarts';
import { yAxisScale } from './y-scale';
import { UTC_ZONE } from '../time/zone';

const POINTS = 360;

function series(key: string, times: Float64Array, phase: number): DisplaySeries {
  const values = Float64Array.from(times, (_, i) => 50 + 40 * Math.sin(i / 9 + phase));
  return { key, plotId: key, label: key, color: '#3366cc', hidden: false, times, values, drawn: values, step: false, axis: 0, units: '', offsetMs: 0 };
}

/** Draws the warm-up strips into a hidden element, then removes it. */
export function warmUpCharts(): void {
  const host = document.createElement('div');
  // Laid out (ECharts measures its element) but neither seen nor in the way.
  host.style.cssText = 'position:fixed;left:-10000px;top:0;width:600px;height:150px;visibility:hidden;pointer-events:none';
  document.body.appendChild(host);
  const canvas = new StripCanvas(host);
  try {
    const t0 = Date.UTC(2020, 0, 1);
    const times = Float64Array.from({ length: POINTS }, (_, i) => t0 + i * 10_000);
    const data = { series: [series('a', times, 0), series('b', times, 1)], scale: { factor: 1, label: '' }, problems: [] };
    for (const style of ['stacked-area', 'line', 'stacked-bar'] as const) {
      const y = yAxisScale(data.series, style, { mode: 'auto' });
      canvas.render(buildOption({ data, style, y, zone: UTC_ZONE, r0Ms: t0, r1Ms: times[POINTS - 1] ?? t0 }), 600, 150);
    }
  } finally {
    canvas.dispose();
    host.remove();
  }
}
