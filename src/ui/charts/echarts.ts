// The only module that imports ECharts. It registers just what pmdash draws (line and bar
// series on a grid, the canvas renderer) to keep the bundle lean, and wraps one ECharts
// instance drawing a chart's *strip*: the series over a time range wider than the visible
// window, with the x axis but no y axis (plot-surface.ts scrolls the strip and draws the y
// axis, the crosshair and the tooltip in the DOM). A render is synchronous: resize to the
// strip's size, merge the new option with only the series replaced, paint.
import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import { GridComponent, type GridComponentOption } from 'echarts/components';
import { init, use as registerParts, type ComposeOption, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { dataUpdate, optionShape } from './option-update';

registerParts([LineChart, BarChart, GridComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<LineSeriesOption | BarSeriesOption | GridComponentOption>;
export type SeriesOption = LineSeriesOption | BarSeriesOption;

export class StripCanvas {
  private readonly chart: ECharts;
  private width = 0;
  private height = 0;
  /** The shape (optionShape) of the option last drawn. */
  private shape = '';

  constructor(el: HTMLElement) {
    // Sized here, not measured: zrender would read the element's size (a forced layout per
    // chart while a tab's charts are built); every render gives the size it draws at.
    this.chart = init(el, undefined, { renderer: 'canvas', width: 1, height: 1 });
    // Every render below paints synchronously (setOption without lazyUpdate ends in a flush),
    // yet zrender keeps its requestAnimationFrame loop running for idle frames after any
    // change (ten by default, two at setSleepAfterStill(1)): with five live charts redrawn
    // each second that made four main frames per tick instead of two. ECharts says
    // 'finished' once nothing is left (no animation, no progressive chunk of a long series,
    // no pending update): the loop stops there, and the next render starts it again. The
    // short sleep stays as the fallback should 'finished' not come.
    this.chart.getZr().setSleepAfterStill(1);
    this.chart.on('finished', () => this.chart.getZr().animation.stop());
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
    const shape = optionShape(option);
    if (shape === this.shape) {
      // Only data and ranges changed (a live tick): hand over just those.
      this.chart.setOption(dataUpdate(option), { notMerge: false, lazyUpdate: false, silent: true });
      return;
    }
    this.shape = shape;
    this.chart.setOption(option, { notMerge: false, replaceMerge: ['series'], lazyUpdate: false, silent: true });
  }

  /** The strip's canvas (PNG export copies the visible part of it). */
  canvas(): HTMLCanvasElement | null {
    return this.chart.getDom().querySelector('canvas');
  }

  dispose(): void {
    this.chart.dispose();
  }
}
