// A chart's plot area, built so that playing costs almost nothing. ECharts draws the series
// once on a *strip* wider than the visible window (half a window or more either side, as far
// as the data goes, at most one window); while the window moves the strip only slides
// (a CSS transform on its own layer: no ECharts update, no repaint of the canvas). It is
// redrawn only when the data, style, zone, theme or size change, or when the window leaves
// the strip, and then through the shared frame loop (frame-loop.ts) so many charts spread
// their redraws over frames. The y axis stays put: its labels, grid lines and units title
// are DOM here, from the ticks y-scale.ts computes and the strip is told to use.
//
//   root (.chart-canvas)
//   ├─ .plot-grid      horizontal grid lines across the plot area
//   ├─ .plot-y         tick labels and the rotated units title, in the left gutter
//   ├─ .plot-y2        the right axis (plots of a second kind of units): labels just inside
//   │                  the plot's right edge, the rotated units title in the right margin —
//   │                  every chart of a tab keeps the same plot width for the one time axis
//   └─ .plot-viewport  the plot area's width, clipping
//      └─ .plot-strip  translated sideways, holding
//         ├─ .plot-vlines  vertical grid lines at the tab's time ticks (time-ticks.ts)
//         └─ .plot-echarts the ECharts canvas (a live chart: its own canvas, live-strip.ts)
import type { ChartStyle, YScale } from '../state/model';
import { shiftMs, type DisplayZone } from '../time/zone';
import type { ChartColors } from '../theme/theme';
import type { ChartData } from './chart-series';
import { buildOption, PLOT_LEFT, PLOT_RIGHT, STRIP_BOTTOM, STRIP_TOP } from './chart-option';
import { StripCanvas } from './echarts';
import { LiveStrip } from './live-strip';
import { cancelRedraw, requestRedraw, wake, type FrameClient } from './frame-loop';
import { formatValue } from './unit-scale';
import { shiftedTicks, tickStepMs } from './time-ticks';
import { rightAxisScale, yAxisScale, type YAxisScale } from './y-scale';

/** What a surface draws; a new object means "redraw". */
export interface SurfaceContent {
  readonly data: ChartData;
  readonly style: ChartStyle;
  readonly yScale: YScale;
  readonly zone: DisplayZone;
  readonly colors: ChartColors;
  /** The range the data covers (epoch ms), NaN when there is none yet. */
  readonly dataT0Ms: number;
  readonly dataT1Ms: number;
  /**
   * A live chart: its data changes with every move of its window, so each move redraws
   * anyway and a strip wider than the window would only be more pixels to paint.
   */
  readonly live?: boolean;
  /** A chart without plots: the tab's time grid only, no y scale (nothing to scale). */
  readonly empty?: boolean;
}

/** What the strip on screen was drawn for (x in zone-shifted ms). */
interface Drawn {
  readonly content: SurfaceContent;
  readonly r0: number;
  readonly r1: number;
  readonly widthPx: number;
  /** Pixels per shifted ms of the visible window the strip was drawn for. */
  readonly pxPerMs: number;
  readonly heightPx: number;
}

const surfaces = new WeakMap<Element, PlotSurface>();

/** The surface drawn in a chart element (PNG export). */
export function surfaceOf(chartEl: Element): PlotSurface | undefined {
  const root = chartEl.querySelector('.chart-canvas');
  return root ? surfaces.get(root) : undefined;
}

function div(cls: string, parent: HTMLElement): HTMLDivElement {
  const d = document.createElement('div');
  d.className = cls;
  parent.appendChild(d);
  return d;
}

/** Whether two axes have the same range and ticks (their labels and lines would be the same). */
function sameTicks(a: YAxisScale, b: YAxisScale): boolean {
  return a.min === b.min && a.max === b.max && a.ticks.length === b.ticks.length && a.ticks.every((v, i) => v === b.ticks[i]);
}

/**
 * Writes an inline style property or a data attribute only when it changes: a live chart
 * redraws every sample with mostly the same values, and each write is a style or attribute
 * change for Chromium to look at again in that frame.
 */
function setStyle(el: HTMLElement, prop: 'width' | 'transform', value: string): void {
  // Remembered as written (the browser reads a transform back in its own spelling).
  let written = stylesWritten.get(el);
  if (!written) stylesWritten.set(el, (written = new Map<string, string>()));
  if (written.get(prop) === value) return;
  written.set(prop, value);
  el.style[prop] = value;
}

const stylesWritten = new WeakMap<HTMLElement, Map<string, string>>();

function setData(el: HTMLElement, key: string, value: string): void {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

/** The inline style a line was last given, so an unchanged one is not written again. */
const lineStyles = new WeakMap<Element, string>();

export class PlotSurface implements FrameClient {
  onScreen = true;
  private readonly grid: HTMLDivElement;
  private readonly yAxis: HTMLDivElement;
  private readonly yAxis2: HTMLDivElement;
  private readonly viewport: HTMLDivElement;
  private readonly strip: HTMLDivElement;
  private readonly vlines: HTMLDivElement;
  /** ECharts for archive charts; a live chart draws on its own canvas (live-strip.ts). */
  private canvas: StripCanvas | LiveStrip | undefined;
  private readonly canvasHost: HTMLDivElement;
  private readonly observer: IntersectionObserver;
  private content: SurfaceContent | undefined;
  private drawn: Drawn | undefined;
  private y: YAxisScale | undefined;
  private y2: YAxisScale | undefined;
  private t0Ms = NaN;
  private t1Ms = NaN;
  private widthPx = 0;
  private heightPx = 0;
  private shiftPx = NaN;

  constructor(private readonly root: HTMLElement) {
    this.grid = div('plot-grid', root);
    this.yAxis = div('plot-y', root);
    this.viewport = div('plot-viewport', root);
    // Above the viewport: its labels sit inside the plot area.
    this.yAxis2 = div('plot-y2', root);
    this.strip = div('plot-strip', this.viewport);
    this.vlines = div('plot-vlines', this.strip);
    this.canvasHost = div('plot-echarts', this.strip);
    // Not measured here (a forced layout per chart while a tab's charts are built): the
    // owner's ResizeObserver calls resize() once the element is laid out, before it paints.
    this.observer = new IntersectionObserver((entries) => {
      const e = entries[entries.length - 1];
      if (!e) return;
      this.onScreen = e.isIntersecting;
      wake(this);
    });
    this.observer.observe(root);
    surfaces.set(root, this);
  }

  /** A live chart's redraws share their frame with the other live charts' (frame-loop.ts). */
  get together(): boolean {
    return this.content?.live === true;
  }

  /** New data, style, scale, zone or colours: redrawn in a coming frame. */
  setContent(c: SurfaceContent): void {
    this.content = c;
    requestRedraw(this);
  }

  /** The visible window (epoch ms): slides the strip now, or asks for a redraw. */
  setWindow(t0Ms: number, t1Ms: number): void {
    this.t0Ms = t0Ms;
    this.t1Ms = t1Ms;
    this.place();
  }

  /** The element changed size. */
  resize(): void {
    this.measure();
    requestRedraw(this);
  }

  /** The plot area within the root element (CSS px). */
  plotArea(): { left: number; top: number; width: number; height: number } {
    return { left: PLOT_LEFT, top: STRIP_TOP, width: Math.max(0, this.widthPx - PLOT_LEFT - PLOT_RIGHT), height: Math.max(0, this.heightPx - STRIP_TOP - STRIP_BOTTOM) };
  }

  /** The time (epoch ms) at x pixels from the root's left edge; NaN outside the plot area. */
  timeAt(x: number): number {
    const a = this.plotArea();
    if (!(a.width > 0) || x < a.left || x > a.left + a.width || !Number.isFinite(this.t0Ms)) return NaN;
    return this.t0Ms + ((x - a.left) / a.width) * (this.t1Ms - this.t0Ms);
  }

  /** The x pixel (from the root's left edge) of a time, or NaN outside the window. */
  xOf(tMs: number): number {
    const a = this.plotArea();
    if (!(tMs >= this.t0Ms && tMs <= this.t1Ms)) return NaN;
    return a.left + ((tMs - this.t0Ms) / (this.t1Ms - this.t0Ms)) * a.width;
  }

  /** The y axis as drawn (tests and PNG export read it). */
  axis(): YAxisScale | undefined {
    return this.y;
  }

  /** The right y axis as drawn, if the chart has one. */
  rightAxis(): YAxisScale | undefined {
    return this.y2;
  }

  dispose(): void {
    cancelRedraw(this);
    this.observer.disconnect();
    this.canvas?.dispose();
    surfaces.delete(this.root);
    this.root.replaceChildren();
  }

  private measure(): void {
    this.widthPx = this.root.clientWidth;
    this.heightPx = this.root.clientHeight;
  }

  /** Slides the strip to the window, or asks for a redraw when it cannot show it. */
  private place(): void {
    const d = this.drawn;
    if (!d || !Number.isFinite(this.t0Ms) || !Number.isFinite(this.t1Ms)) {
      requestRedraw(this);
      return;
    }
    const zone = d.content.zone;
    const w0 = shiftMs(this.t0Ms, zone);
    const w1 = shiftMs(this.t1Ms, zone);
    const pxPerMs = this.plotArea().width / (w1 - w0);
    const scaleKept = Math.abs(pxPerMs - d.pxPerMs) <= d.pxPerMs * 1e-9;
    if (!scaleKept || w0 < d.r0 - 1e-6 || w1 > d.r1 + 1e-6 || d.heightPx !== this.heightPx) requestRedraw(this);
    // Until then the old strip slides on (a gap may show at its edge for a frame or two).
    if (scaleKept) this.slide((w0 - d.r0) * (d.widthPx / (d.r1 - d.r0)));
  }

  private slide(px: number): void {
    const x = Math.round(px);
    if (x === this.shiftPx) return;
    this.shiftPx = x;
    setStyle(this.strip, 'transform', `translate3d(${-x}px, 0, 0)`);
  }

  /** The expensive part, run by the frame loop: draws the strip and the y axis. */
  redraw(): void {
    const c = this.content;
    const plotWidth = this.plotArea().width;
    if (!c || !(plotWidth > 0) || !(this.heightPx > 0) || !Number.isFinite(this.t0Ms) || !(this.t1Ms > this.t0Ms)) return;
    const span = this.t1Ms - this.t0Ms;
    // Half a window either side at least; as far as the data goes, up to a whole window.
    // Live: a twentieth either side, enough to slide until the next frame's redraw.
    const r0Ms = c.live ? this.t0Ms - span / 20 : Math.min(this.t0Ms - span / 2, Number.isFinite(c.dataT0Ms) ? Math.max(c.dataT0Ms, this.t0Ms - span) : Infinity);
    const r1Ms = c.live ? this.t1Ms + span / 20 : Math.max(this.t1Ms + span / 2, Number.isFinite(c.dataT1Ms) ? Math.min(c.dataT1Ms, this.t1Ms + span) : -Infinity);
    const w0 = shiftMs(this.t0Ms, c.zone);
    const w1 = shiftMs(this.t1Ms, c.zone);
    const r0 = shiftMs(r0Ms, c.zone);
    const r1 = shiftMs(r1Ms, c.zone);
    const pxPerMs = plotWidth / (w1 - w0);
    const widthPx = Math.max(1, Math.round((r1 - r0) * pxPerMs));
    const y = yAxisScale(c.data.series, c.style, c.yScale);
    const y2 = c.data.right ? rightAxisScale(c.data.series, c.style, y) : undefined;
    const input = { data: c.data, style: c.style, y, y2, zone: c.zone, r0Ms, r1Ms, colors: c.colors };
    setStyle(this.strip, 'width', `${widthPx}px`);
    // The same ticks as the tab's time axis (same span, same plot width), across the strip.
    const a = this.plotArea();
    const ticks = shiftedTicks(r0Ms, r1Ms, c.zone, tickStepMs(span, plotWidth)).map((t) => Math.round((t - r0) * (widthPx / (r1 - r0))));
    if (c.live) {
      if (!(this.canvas instanceof LiveStrip)) {
        this.canvas?.dispose();
        this.canvasHost.replaceChildren();
        this.canvas = new LiveStrip(this.canvasHost);
      }
      // A live strip moves under its grid lines every sample: drawn on its canvas with the
      // series, they cost nothing more, where lines in the DOM were each repainted.
      if (this.vlines.firstChild) this.vlines.replaceChildren();
      this.canvas.render(input, widthPx, this.heightPx, { xs: ticks, top: a.top, height: a.height, color: c.colors.splitLine });
    } else {
      if (!(this.canvas instanceof StripCanvas)) {
        this.canvas?.dispose();
        this.canvasHost.replaceChildren();
        this.canvas = new StripCanvas(this.canvasHost);
      }
      this.canvas.render(buildOption(input), widthPx, this.heightPx);
      // The lines of the last drawing are moved rather than made anew.
      while (this.vlines.childElementCount > ticks.length) this.vlines.lastElementChild?.remove();
      while (this.vlines.childElementCount < ticks.length) div('grid-line', this.vlines);
      ticks.forEach((x, i) => {
        const l = this.vlines.children[i] as HTMLElement;
        const css = `left:${x}px;top:${a.top}px;height:${a.height}px;background:${c.colors.splitLine}`;
        if (lineStyles.get(l) === css) return;
        lineStyles.set(l, css);
        l.style.cssText = css;
      });
    }
    this.drawn = { content: c, r0, r1, widthPx, pxPerMs, heightPx: this.heightPx };
    // What the canvas now shows, for tests and tools (the spec may be ahead of the drawing).
    setData(this.root, 'drawnStyle', c.style);
    setData(this.root, 'drawnSeries', String(c.data.series.filter((s) => !s.hidden).length));
    // The newest sample drawn: an off-screen chart keeps an older one until it shows again.
    setData(this.root, 'drawnEnd', String(c.dataT1Ms));
    this.shiftPx = NaN;
    this.slide((w0 - r0) * (widthPx / (r1 - r0)));
    if (c.empty) this.clearAxis();
    else this.drawAxis(y, c);
    this.drawRightAxis(y2, c);
  }

  /** No y axis, units or horizontal grid lines: an empty chart has no values to scale. */
  private clearAxis(): void {
    this.y = undefined;
    this.yAxis.replaceChildren();
    this.grid.replaceChildren();
    for (const k of ['units', 'color', 'min', 'max']) delete this.yAxis.dataset[k];
  }

  /** An axis's tick labels and rotated units title (left `y`, right `y2`), at the plot area's heights. */
  private axisLabels(y: YAxisScale, c: SurfaceContent, id: 'y' | 'y2', units: string): { labels: HTMLElement[]; name: HTMLElement } {
    const a = this.plotArea();
    const at = (v: number): number => a.top + (1 - (v - y.min) / (y.max - y.min)) * a.height;
    const labels = y.ticks.map((v) => {
      const s = document.createElement('span');
      s.className = 'y-tick';
      s.dataset.testid = `${id}-tick`;
      s.dataset.value = String(v);
      s.style.top = `${at(v)}px`;
      s.style.color = c.colors.axisText;
      s.textContent = formatValue(v);
      return s;
    });
    const name = document.createElement('span');
    name.className = 'y-name';
    name.dataset.testid = `${id}-units`;
    name.style.top = `${a.top + a.height / 2}px`;
    name.style.color = c.colors.axisName;
    name.textContent = units;
    return { labels, name };
  }

  private drawRightAxis(y: YAxisScale | undefined, c: SurfaceContent): void {
    const old = this.y2;
    this.y2 = y;
    const label = c.data.right?.label ?? '';
    if (!y) {
      if (this.yAxis2.firstChild) this.yAxis2.replaceChildren();
      delete this.yAxis2.dataset.units;
      return;
    }
    // Unchanged (a live chart's every sample, mostly): its labels stay as they are.
    if (old && sameTicks(old, y) && this.yAxis2.dataset.units === label && this.yAxis2.dataset.color === c.colors.axisText) return;
    this.yAxis2.dataset.color = c.colors.axisText;
    const { labels, name } = this.axisLabels(y, c, 'y2', label);
    this.yAxis2.replaceChildren(...labels, name);
    this.yAxis2.dataset.units = label;
    this.yAxis2.dataset.min = String(y.min);
    this.yAxis2.dataset.max = String(y.max);
  }

  private drawAxis(y: YAxisScale, c: SurfaceContent): void {
    const same = this.y && sameTicks(this.y, y) && this.yAxis.dataset.units === c.data.scale.label && this.yAxis.dataset.color === c.colors.axisText;
    this.y = y;
    if (same) return;
    const a = this.plotArea();
    const at = (v: number): number => a.top + (1 - (v - y.min) / (y.max - y.min)) * a.height;
    const { labels, name } = this.axisLabels(y, c, 'y', c.data.scale.label);
    this.yAxis.replaceChildren(...labels, name);
    this.yAxis.dataset.units = c.data.scale.label;
    this.yAxis.dataset.color = c.colors.axisText;
    this.yAxis.dataset.min = String(y.min);
    this.yAxis.dataset.max = String(y.max);
    this.grid.replaceChildren(
      ...y.ticks.map((v) => {
        const l = document.createElement('div');
        l.className = 'grid-line';
        l.style.top = `${Math.round(at(v))}px`;
        l.style.background = c.colors.splitLine;
        return l;
      }),
    );
  }

  /**
   * The plot as the user sees it, on one canvas: grid lines, y labels and units, and the
   * visible part of the strip (PNG export).
   */
  snapshot(): HTMLCanvasElement {
    const scale = window.devicePixelRatio || 1;
    const out = document.createElement('canvas');
    out.width = Math.ceil(this.widthPx * scale);
    out.height = Math.ceil(this.heightPx * scale);
    const ctx = out.getContext('2d');
    const c = this.drawn?.content;
    const y = this.y;
    if (!ctx || !c || !y) return out;
    ctx.scale(scale, scale);
    const a = this.plotArea();
    const at = (v: number): number => a.top + (1 - (v - y.min) / (y.max - y.min)) * a.height;
    ctx.fillStyle = c.colors.splitLine;
    for (const v of y.ticks) ctx.fillRect(a.left, Math.round(at(v)), a.width, 1);
    if (this.t1Ms > this.t0Ms) {
      const w0 = shiftMs(this.t0Ms, c.zone);
      const w1 = shiftMs(this.t1Ms, c.zone);
      for (const t of shiftedTicks(this.t0Ms, this.t1Ms, c.zone, tickStepMs(this.t1Ms - this.t0Ms, a.width))) ctx.fillRect(a.left + Math.round(((t - w0) / (w1 - w0)) * a.width), a.top, 1, a.height);
    }
    const strip = this.canvas?.canvas();
    if (strip && this.drawn) {
      const k = strip.width / this.drawn.widthPx;
      const sx = Number.isFinite(this.shiftPx) ? this.shiftPx : 0;
      ctx.drawImage(strip, sx * k, 0, a.width * k, this.heightPx * k, a.left, 0, a.width, this.heightPx);
    }
    ctx.font = "12px 'DejaVu Sans', Verdana, sans-serif";
    ctx.fillStyle = c.colors.axisText;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of y.ticks) ctx.fillText(formatValue(v), a.left - 8, at(v));
    ctx.save();
    ctx.translate(a.left - 48, a.top + a.height / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillStyle = c.colors.axisName;
    ctx.fillText(c.data.scale.label, 0, 0);
    ctx.restore();
    const y2 = this.y2;
    if (y2 && c.data.right) {
      const at2 = (v: number): number => a.top + (1 - (v - y2.min) / (y2.max - y2.min)) * a.height;
      ctx.textAlign = 'right';
      ctx.fillStyle = c.colors.axisText;
      for (const v of y2.ticks) ctx.fillText(formatValue(v), a.left + a.width - 4, Math.min(a.top + a.height - 7, Math.max(a.top + 7, at2(v))));
      ctx.save();
      ctx.translate(a.left + a.width + 10, a.top + a.height / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center';
      ctx.fillStyle = c.colors.axisName;
      ctx.fillText(c.data.right.label, 0, 0);
      ctx.restore();
    }
    return out;
  }
}
