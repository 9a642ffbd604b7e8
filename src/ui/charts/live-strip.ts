// A live chart's strip drawn straight onto a canvas, without ECharts. A live chart redraws
// once per sample, and each ECharts render of it (setOption: merging the option into its
// model, rebuilding the series' data stores, the line views' diff, the axes' layout) cost
// several times the drawing itself: with five live charts that made most of the renderer's
// main-thread time. Here a redraw is a clear and one path per series over the points inside
// the strip. It draws what buildOption (chart-option.ts) asks ECharts for, in the same
// geometry (the grid's margins, the time range, the y ranges of y-scale.ts) and the same
// styles: lines 1.5 px, areas at 0.35 opacity, stacked bands at 0.9 with a 0.6 px outline,
// steps at the end of each interval for stacked and discrete plots, bars in 90% of the
// sample spacing, missing values breaking lines and bands.
import { LIGHT_CHART } from '../theme/theme';
import { STRIP_BOTTOM, STRIP_TOP, type OptionInput } from './chart-option';
import { runs, shapes, type Shape } from './strip-shapes';

/** The vertical grid lines under the series: x pixels in the strip, and their extent. */
export interface GridLines {
  readonly xs: readonly number[];
  readonly top: number;
  readonly height: number;
  readonly color: string;
}

export class LiveStrip {
  private readonly el: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private width = 0;
  private height = 0;
  private scale = 0;

  constructor(parent: HTMLElement) {
    this.el = document.createElement('canvas');
    this.el.style.display = 'block';
    parent.appendChild(this.el);
    this.ctx = this.el.getContext('2d');
  }

  /** Draws `input` at `width` × `height` CSS pixels, now, over vertical grid lines at `grid.xs`. */
  render(input: OptionInput, width: number, height: number, grid: GridLines): void {
    const scale = window.devicePixelRatio || 1;
    if (width !== this.width || height !== this.height || scale !== this.scale) {
      this.width = width;
      this.height = height;
      this.scale = scale;
      this.el.width = Math.max(1, Math.round(width * scale));
      this.el.height = Math.max(1, Math.round(height * scale));
      this.el.style.width = `${width}px`;
      this.el.style.height = `${height}px`;
    }
    const ctx = this.ctx;
    if (!ctx) return;
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const plotH = height - STRIP_TOP - STRIP_BOTTOM;
    if (!(plotH > 0)) return;
    ctx.fillStyle = grid.color;
    for (const x of grid.xs) ctx.fillRect(x, grid.top, 1, grid.height);
    ctx.save();
    // The grid's clip, as ECharts clips a cartesian series (half a line width of slack).
    ctx.beginPath();
    ctx.rect(0, STRIP_TOP - 1, width, plotH + 2);
    ctx.clip();
    for (const shape of shapes(input, width, plotH, STRIP_TOP)) draw(ctx, shape, input);
    ctx.restore();
  }

  canvas(): HTMLCanvasElement {
    return this.el;
  }

  dispose(): void {
    this.el.remove();
  }
}

/** Traces a run's points, stepping at the end of each interval when `step` (ECharts' step: 'end'). */
function trace(ctx: CanvasRenderingContext2D, xs: Float64Array, ys: Float64Array, from: number, to: number, step: boolean, first: boolean): void {
  const dir = from <= to ? 1 : -1;
  for (let i = from; ; i += dir) {
    const x = xs[i] ?? NaN;
    const y = ys[i] ?? NaN;
    if (i === from) {
      if (first) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    } else if (step) {
      // Forwards: hold the previous value until this row, then move to it. Backwards (a
      // band's base traced back), the same corners seen from the other side.
      const prevY = ys[i - dir] ?? NaN;
      if (dir > 0) ctx.lineTo(x, prevY);
      else ctx.lineTo(xs[i - dir] ?? NaN, y);
      ctx.lineTo(x, y);
    } else {
      ctx.lineTo(x, y);
    }
    if (i === to) break;
  }
}

function draw(ctx: CanvasRenderingContext2D, shape: Shape, input: OptionInput): void {
  const { style } = input;
  const { s, xs, tops, bases } = shape;
  const stacked = style === 'stacked-area' || style === 'stacked-bar' || style === 'utilization';
  if (style === 'bar' || style === 'stacked-bar') {
    drawBars(ctx, shape);
    return;
  }
  const step = stacked || s.step;
  const segments = runs(tops);
  if (style !== 'line') {
    ctx.fillStyle = s.color;
    ctx.globalAlpha = stacked ? 0.9 : 0.35;
    ctx.beginPath();
    for (const [a, b] of segments) {
      trace(ctx, xs, tops, a, b, step, true);
      trace(ctx, xs, bases, b, a, step, false);
      ctx.closePath();
    }
    ctx.fill();
    ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = stacked ? (input.colors ?? LIGHT_CHART).stackOutline : s.color;
  ctx.lineWidth = stacked ? 0.6 : 1.5;
  ctx.lineJoin = 'bevel';
  ctx.beginPath();
  for (const [a, b] of segments) if (b > a) trace(ctx, xs, tops, a, b, step, true);
  ctx.stroke();
}

/** Bars centred on their rows, 90% of the closest rows' spacing wide, overlapping (or stacked). */
function drawBars(ctx: CanvasRenderingContext2D, { s, xs, tops, bases }: Shape): void {
  let gap = Infinity;
  for (let i = 1; i < xs.length; i++) gap = Math.min(gap, (xs[i] ?? NaN) - (xs[i - 1] ?? NaN));
  const w = Math.max(1, (Number.isFinite(gap) ? gap : 10) * 0.9);
  ctx.fillStyle = s.color;
  for (let i = 0; i < xs.length; i++) {
    const top = tops[i] ?? NaN;
    const base = bases[i] ?? NaN;
    if (!Number.isFinite(top) || !Number.isFinite(base)) continue;
    ctx.fillRect((xs[i] ?? 0) - w / 2, Math.min(top, base), w, Math.abs(base - top));
  }
}
