// The only module that imports ECharts. It registers just what pmdash draws (line and bar
// series on a grid, the canvas renderer) to keep the bundle lean, and wraps one ECharts
// instance drawing a chart's *strip*: the series over a time range wider than the visible
// window, with the x axis but no y axis (plot-surface.ts scrolls the strip and draws the y
// axis, the crosshair and the tooltip in the DOM). A render is synchronous: resize to the
// strip's size, merge the new option with only the series replaced (only their data and the
// axes' ranges when nothing else changed), paint.
import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import { GridComponent, type GridComponentOption } from 'echarts/components';
import { init, use as registerParts, type ComposeOption, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

registerParts([LineChart, BarChart, GridComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<LineSeriesOption | BarSeriesOption | GridComponentOption>;
export type SeriesOption = LineSeriesOption | BarSeriesOption;

export class StripCanvas {
  private readonly chart: ECharts;
  private width = 0;
  private height = 0;
  /** Everything of the last option but the series' data: when unchanged only data is sent. */
  private shape = '';

  constructor(el: HTMLElement) {
    this.chart = init(el, undefined, { renderer: 'canvas' });
    // Every render below paints synchronously (setOption without lazyUpdate ends in a flush)
    // and nothing here animates, yet zrender restarts its requestAnimationFrame loop on every
    // change and keeps it running for ten idle frames: with a few live charts redrawn each
    // second that is a main frame every 16 ms for good. Its loop never runs for a strip.
    const loop = this.chart.getZr().animation;
    loop.stop();
    loop.start = () => undefined;
  }

  /**
   * Draws `option` at `width` × `height` CSS pixels, now. Axes and grid are merged (kept
   * between renders); series are replaced, so removed series disappear.
   */
  render(option: ChartOption, width: number, height: number): void {
    if (width !== this.width || height !== this.height) {
      this.width = width;
      this.height = height;
      this.chart.resize({ width, height, silent: true });
    }
    const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
    const shape = JSON.stringify({ ...option, series: series.map((x) => ({ ...x, data: undefined })) }, (k, v: unknown) => (k === 'min' || k === 'max' ? undefined : v));
    if (shape === this.shape) {
      // Same series and styles (a live tick, a moved strip): only the data and the axes'
      // ranges change, merged into the series ECharts already has by id.
      const axis = (a: ChartOption['xAxis']): { min?: unknown; max?: unknown } => (Array.isArray(a) ? a[0] : a) as { min?: unknown; max?: unknown };
      const x = axis(option.xAxis);
      const y = axis(option.yAxis as ChartOption['xAxis']);
      this.chart.setOption(
        { xAxis: { min: x.min, max: x.max }, yAxis: { min: y.min, max: y.max }, series: series.map((x) => ({ id: x.id, data: x.data })) } as ChartOption,
        { notMerge: false, lazyUpdate: false, silent: true },
      );
    } else {
      this.shape = shape;
      this.chart.setOption(option, { notMerge: false, replaceMerge: ['series'], lazyUpdate: false, silent: true });
    }
  }

  /** The strip's canvas (PNG export copies the visible part of it). */
  canvas(): HTMLCanvasElement | null {
    return this.chart.getDom().querySelector('canvas');
  }

  dispose(): void {
    this.chart.dispose();
  }
}
