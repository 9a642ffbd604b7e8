// The only module that imports ECharts. It registers just what pmdash draws (line and bar
// series on a grid, axis tooltips, the canvas renderer) to keep the bundle lean, and wraps
// one chart instance: full options when data changes, a cheap window update while playing,
// pixel↔time for drag-to-zoom, and tab-wide crosshair/tooltip linking via echarts.connect.
// Charts scrolled out of view defer their updates until they are seen again.
import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import { AxisPointerComponent, GridComponent, MarkAreaComponent, TooltipComponent, type GridComponentOption, type MarkAreaComponentOption, type TooltipComponentOption } from 'echarts/components';
import { connect, init, use as registerParts, type ComposeOption, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

registerParts([LineChart, BarChart, GridComponent, TooltipComponent, AxisPointerComponent, MarkAreaComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<LineSeriesOption | BarSeriesOption | GridComponentOption | TooltipComponentOption | MarkAreaComponentOption>;
export type SeriesOption = LineSeriesOption | BarSeriesOption;

/** What a tooltip formatter receives per series (the subset pmdash reads). */
export interface TooltipParam {
  readonly seriesIndex: number;
  readonly dataIndex: number;
  readonly axisValue: number;
  readonly color: string;
}

export class ChartCanvas {
  private readonly chart: ECharts;
  private readonly observer: IntersectionObserver;
  /** Off screen, updates wait here: a tab of many charts redraws only what can be seen. */
  private onScreen = true;
  private pendingOption: ChartOption | undefined;
  private pendingWindow: readonly [number, number] | undefined;

  constructor(el: HTMLElement, group: string) {
    this.chart = init(el, undefined, { renderer: 'canvas' });
    this.chart.group = group;
    connect(group);
    this.observer = new IntersectionObserver((entries) => {
      const e = entries[entries.length - 1];
      if (!e) return;
      this.onScreen = e.isIntersecting;
      if (this.onScreen) this.flush();
    });
    this.observer.observe(el);
  }

  /** Replaces everything (data, axes, series). */
  setOption(option: ChartOption): void {
    this.pendingOption = option;
    this.pendingWindow = undefined;
    if (this.onScreen) this.flush();
  }

  /** Moves the visible window only: the cheap path while playing. */
  setWindow(minX: number, maxX: number): void {
    this.pendingWindow = [minX, maxX];
    if (this.onScreen) this.flush();
  }

  private flush(): void {
    if (this.pendingOption) {
      const o = this.pendingOption;
      this.pendingOption = undefined;
      // A window that arrived later than the option wins over the option's own.
      const w = this.pendingWindow;
      this.pendingWindow = undefined;
      this.chart.setOption(w ? { ...o, xAxis: { ...(o.xAxis as object), min: w[0], max: w[1] } } : o, { notMerge: true, lazyUpdate: true });
    } else if (this.pendingWindow) {
      const [min, max] = this.pendingWindow;
      this.pendingWindow = undefined;
      this.chart.setOption({ xAxis: { min, max } }, { lazyUpdate: true });
    }
  }

  /** The x value (shifted ms) at a pixel offset in the chart element, or NaN outside the grid. */
  pixelToX(px: number, py: number): number {
    if (!this.chart.containPixel({ gridIndex: 0 }, [px, py])) return NaN;
    const v: unknown = this.chart.convertFromPixel({ xAxisIndex: 0 }, px);
    return typeof v === 'number' ? v : NaN;
  }

  /** Calls back with the x value under the axis pointer (undefined when it leaves). */
  onPointer(fn: (x: number | undefined) => void): void {
    this.chart.on('updateAxisPointer', (e: unknown) => {
      const axes = (e as { axesInfo?: { value?: number }[] }).axesInfo;
      fn(axes && axes.length > 0 ? axes[0]?.value : undefined);
    });
    this.chart.getZr().on('globalout', () => fn(undefined));
  }

  resize(): void {
    this.chart.resize();
  }

  dispose(): void {
    this.observer.disconnect();
    this.chart.dispose();
  }
}
