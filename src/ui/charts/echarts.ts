// The only module that imports ECharts. It registers just what pmdash draws (line and bar
// series on a grid, axis tooltips, the canvas renderer) to keep the bundle lean, and wraps
// one chart instance: full options when data changes, a cheap window update while playing,
// pixel↔time for drag-to-zoom, and tab-wide crosshair/tooltip linking via echarts.connect.
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

  constructor(el: HTMLElement, group: string) {
    this.chart = init(el, undefined, { renderer: 'canvas' });
    this.chart.group = group;
    connect(group);
  }

  /** Replaces everything (data, axes, series). */
  setOption(option: ChartOption): void {
    this.chart.setOption(option, { notMerge: true, lazyUpdate: true });
  }

  /** Moves the visible window only: the cheap path while playing. */
  setWindow(minX: number, maxX: number): void {
    this.chart.setOption({ xAxis: { min: minX, max: maxX } }, { lazyUpdate: true });
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
    this.chart.dispose();
  }
}
