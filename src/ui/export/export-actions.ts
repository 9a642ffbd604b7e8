// What the Export menu does (issue 8): the visible data as CSV, a chart or the whole tab as
// PNG (with the tab's time axis), and the visible time window of the open archives as new PCP archives. CSV asks the
// engine afresh for exactly the visible window on the charts' own grid (the series cache
// holds padded windows); PNG composes what is on screen (title, the ECharts canvas, the
// legend) onto one canvas; archives are cut by the engine (pmlogextract's semantics) and
// arrive as one .tar per archive.
import type { SeriesBlock } from '../../workers/engine-types';
import { plotsBySource } from '../charts/use-chart-series';
import { surfaceOf } from '../charts/plot-surface';
import { heatShade } from '../charts/heatmap-cells';
import { asEngineError, describeError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import { fetchStep } from '../series/buffered-window';
import type { ChartSpec, SourceEntry } from '../state/model';
import { MAX_POINTS } from '../state/time-slice';
import { dash } from '../store';
import { axisLabels, type AxisPlacement } from '../time/time-axis';
import { formatIso, type DisplayZone } from '../time/zone';
import { chartColumns, formatCsv, type CsvColumn } from './csv';
import { downloadBlob, safeFileName } from './download';

/** The visible window on the charts' grid: rows from the first grid point in it to the last. */
export function visibleGrid(): { t0Ms: number; t1Ms: number; stepMs: number } {
  const s = dash();
  const stepMs = fetchStep(s.windowMs, s.intervalMs, MAX_POINTS);
  const anchor = Number.isFinite(s.anchorMs) ? s.anchorMs : 0;
  const t0 = anchor + Math.ceil((s.positionMs - s.windowMs - anchor) / stepMs - 1e-9) * stepMs;
  const t1 = anchor + Math.floor((s.positionMs - anchor) / stepMs + 1e-9) * stepMs;
  return { t0Ms: t0, t1Ms: Math.max(t0, t1), stepMs };
}

function chartsInScope(scope: 'tab' | 'chart'): ChartSpec[] {
  const s = dash();
  const tab = s.tabs.find((t) => t.id === s.activeTabId);
  if (scope === 'chart') {
    // A chart current in another tab is not one the user sees selected.
    const c = s.currentChartId && tab?.chartIds.includes(s.currentChartId) ? s.charts[s.currentChartId] : undefined;
    return c ? [c] : [];
  }
  return (tab?.chartIds ?? []).flatMap((id) => (s.charts[id] ? [s.charts[id]] : []));
}

function readyArchive(sources: readonly SourceEntry[], id: string): SourceEntry | undefined {
  const src = sources.find((x) => x.id === id);
  return src && src.status === 'ready' && src.handle !== undefined && src.summary?.kind === 'archive' ? src : undefined;
}

/** The CSV text of the visible data of a chart or the tab (archive sources). */
export async function visibleCsv(scope: 'tab' | 'chart', zone: DisplayZone): Promise<string> {
  const s = dash();
  const grid = visibleGrid();
  const charts = chartsInScope(scope);
  if (charts.length === 0) throw new Error(scope === 'chart' ? 'no chart is selected: click a chart first' : 'the tab has no charts');
  if (charts.every((c) => c.plots.length === 0)) throw new Error(`nothing to export: ${scope === 'chart' ? 'the selected chart has' : 'the tab’s charts have'} no metrics`);
  const used = new Set(charts.flatMap((c) => c.plots.map((p) => p.sourceId)));
  const hosts = new Map(s.sources.map((x) => [x.id, x.summary?.hostname ?? x.label]));
  const withHost = new Set([...used].map((id) => hosts.get(id))).size > 1;
  let times: Float64Array | undefined;
  const columns: CsvColumn[] = [];
  const skipped: string[] = [];
  for (const chart of charts) {
    const blocks = new Map<string, SeriesBlock>();
    for (const [sourceId, plots] of plotsBySource(chart)) {
      const src = readyArchive(s.sources, sourceId);
      if (!src || src.handle === undefined) {
        skipped.push(`${chart.title || 'a chart'}: ${hosts.get(sourceId) ?? sourceId} is not an open archive`);
        continue;
      }
      const block = await getEngine().fetchSeries({ handle: src.handle, plots, rate: chart.rate, ...grid });
      blocks.set(sourceId, block);
      times ??= block.timestamps;
    }
    columns.push(...chartColumns(chart, blocks, hosts, withHost));
  }
  // The same metric in two charts: headers stay unique.
  const seen = new Map<string, number>();
  const unique = columns.map((c) => {
    const n = (seen.get(c.header) ?? 0) + 1;
    seen.set(c.header, n);
    return n === 1 ? c : { ...c, header: `${c.header} #${n}` };
  });
  // A file with only a Time column is no export: say why instead.
  if (unique.length === 0) throw new Error(`nothing to export: no ${scope === 'chart' ? 'plot of the selected chart' : 'plot of the tab'} has data from an open archive${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}`);
  if (skipped.length > 0) notify('warning', `CSV export left out live or closed sources:\n${skipped.join('\n')}`);
  return formatCsv(times ?? new Float64Array(0), unique, zone);
}

export async function exportCsv(scope: 'tab' | 'chart', zone: DisplayZone): Promise<void> {
  try {
    const csv = await visibleCsv(scope, zone);
    const s = dash();
    const label = scope === 'chart' ? (s.currentChartId ? s.charts[s.currentChartId]?.title : '') : s.tabs.find((t) => t.id === s.activeTabId)?.label;
    downloadBlob(new Blob([csv], { type: 'text/csv' }), `${safeFileName(label ?? '', 'pmdash')}.csv`);
  } catch (e) {
    notify('error', `CSV export failed: ${e instanceof Error ? e.message : describeError(asEngineError(e))}`);
  }
}

/** Waits until a chart element has been drawn on screen (charts scrolled away defer drawing). */
async function drawn(el: Element): Promise<void> {
  el.scrollIntoView({ block: 'nearest' });
  await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  await new Promise((r) => setTimeout(r, 60));
}

const FONT = "12px 'DejaVu Sans', Verdana, sans-serif";
/** The on-screen axis font (time-axis.tsx sizes its label boxes for it). */
const AXIS_FONT = "11px 'DejaVu Sans', Verdana, sans-serif";

/** Draws one chart section (title, canvas, legend) at `y`; returns its height. */
function drawChart(ctx: CanvasRenderingContext2D | null, el: HTMLElement, y: number, width: number, colors: { text: string; muted: string }): number {
  const title = el.querySelector('[data-testid="chart-title"]')?.textContent ?? '';
  // The plot as seen (the chart's canvas is a wider sliding strip; plot-surface.ts).
  const plot = surfaceOf(el)?.snapshot();
  const plotW = plot ? plot.width / (window.devicePixelRatio || 1) : 0;
  const plotH = plot ? plot.height / (window.devicePixelRatio || 1) : 0;
  const items = [...el.querySelectorAll<HTMLElement>('[data-testid="legend-item"]')].map((li) => ({
    color: li.querySelector<HTMLElement>('.swatch')?.style.background ?? '#888',
    text: `${li.querySelector('.legend-label')?.textContent ?? ''}  ${li.querySelector('[data-testid="legend-value"]')?.textContent ?? ''} ${li.querySelector('[data-testid="legend-units"]')?.textContent ?? ''}`.trimEnd(),
    hidden: li.classList.contains('hidden'),
  }));
  let h = 22;
  if (ctx) {
    ctx.fillStyle = colors.text;
    ctx.font = `bold ${FONT}`;
    ctx.textAlign = 'center';
    ctx.fillText(title, width / 2, y + 15);
    if (plot) ctx.drawImage(plot, 0, y + h, plotW, plotH);
    const heat = el.querySelector<HTMLElement>('[data-testid="heatmap"]');
    const origin = el.querySelector('.chart-canvas')?.getBoundingClientRect();
    if (heat && origin) drawHeatmap(ctx, heat, origin, y + h, colors);
    ctx.textAlign = 'left';
    ctx.font = FONT;
  }
  h += plotH + 4;
  // Legend: wrapped rows of swatch + label + value.
  let x = 8;
  let rowY = y + h;
  const measure = (t: string): number => (ctx ? ctx.measureText(t).width : t.length * 7);
  for (const it of items) {
    const w = 14 + measure(it.text) + 14;
    if (x + w > width && x > 8) {
      x = 8;
      rowY += 18;
    }
    if (ctx) {
      ctx.globalAlpha = it.hidden ? 0.4 : 1;
      ctx.fillStyle = it.color;
      ctx.fillRect(x, rowY + 3, 10, 10);
      ctx.fillStyle = colors.text;
      ctx.fillText(it.text, x + 14, rowY + 12);
      ctx.globalAlpha = 1;
    }
    x += w;
  }
  if (items.length > 0) rowY += 18;
  return rowY - y + 6;
}

/** `text` cut with an ellipsis to fit `width` px. */
function fitText(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let t = text;
  while (t.length > 0 && ctx.measureText(`${t}…`).width > width) t = t.slice(0, -1);
  return `${t}…`;
}

/**
 * A heatmap chart as on screen (heatmap-plot.tsx draws it over an empty strip): its cells
 * (the on-screen canvas), the row labels, and the scale with the aggregation named and the
 * colour ramp (heatmap-cells.ts's one scale) between the smallest and largest cell. Placed by
 * the elements' offsets from the chart canvas, drawn at `top`.
 */
function drawHeatmap(ctx: CanvasRenderingContext2D, heat: HTMLElement, origin: DOMRect, top: number, colors: { text: string; muted: string }): void {
  const at = (e: Element): { x: number; y: number; w: number; h: number } => {
    const r = e.getBoundingClientRect();
    return { x: r.left - origin.left, y: top + r.top - origin.top, w: r.width, h: r.height };
  };
  const css = getComputedStyle(document.documentElement);
  const whole = at(heat);
  ctx.fillStyle = css.getPropertyValue('--panel').trim() || '#ffffff';
  ctx.fillRect(whole.x, whole.y, whole.w, whole.h);
  const cells = heat.querySelector<HTMLCanvasElement>('.heatmap-canvas');
  if (cells && cells.width > 0 && cells.height > 0) {
    const c = at(cells);
    ctx.drawImage(cells, c.x, c.y, c.w, c.h);
  }
  ctx.font = AXIS_FONT;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = colors.muted;
  for (const label of heat.querySelectorAll('.heatmap-label')) {
    const r = at(label);
    if (r.h < 6) continue; // rows too thin for text show none on screen either
    ctx.fillText(fitText(ctx, label.textContent ?? '', r.w - 4), r.x + r.w - 4, r.y + r.h / 2);
  }
  const scale = heat.querySelector<HTMLElement>('[data-testid="heatmap-scale"]');
  if (scale) {
    const r = at(scale);
    const agg = heat.dataset.agg === 'avg' ? 'mean of the samples' : 'largest sample';
    const lo = scale.dataset.lo ?? '';
    const hi = scale.dataset.hi ?? '';
    const units = scale.dataset.units ?? '';
    let x = r.x + 64;
    const y = r.y + r.h / 2;
    ctx.textAlign = 'left';
    const head = `cell: ${agg} in each of ${heat.dataset.columns ?? '?'} columns${lo !== '' ? ' · ' : ''}`;
    ctx.fillText(head, x, y);
    x += ctx.measureText(head).width;
    if (lo !== '') {
      ctx.fillText(lo, x, y);
      x += ctx.measureText(lo).width + 6;
      const rampW = 120;
      for (let i = 0; i < rampW; i++) {
        ctx.fillStyle = heatShade(i / (rampW - 1));
        ctx.fillRect(x + i, y - 5, 1, 10);
      }
      x += rampW + 6;
      ctx.fillStyle = colors.muted;
      ctx.fillText(`${hi} ${units}`.trimEnd(), x, y);
    }
  }
  ctx.textBaseline = 'alphabetic';
}

/** Height of the time axis strip under the charts (tick marks, then labels). */
const AXIS_PX = 24;

/** The time axis at `y`: a line over the plot area, tick marks and the labels the tab's axis shows. */
function drawTimeAxis(ctx: CanvasRenderingContext2D, y: number, place: AxisPlacement, t0Ms: number, t1Ms: number, zone: DisplayZone, colors: { text: string; muted: string }): void {
  const plotPx = place.boxPx - place.leftPx - place.rightPx;
  ctx.fillStyle = colors.muted;
  ctx.fillRect(place.leftPx, y, plotPx, 1);
  ctx.font = AXIS_FONT;
  ctx.textAlign = 'center';
  for (const l of axisLabels(t0Ms, t1Ms, zone, place)) {
    ctx.fillStyle = colors.muted;
    ctx.fillRect(place.leftPx + Math.round(l.x), y, 1, 5);
    ctx.fillStyle = colors.text;
    ctx.fillText(l.text, place.leftPx + l.left + l.w / 2, y + 17);
  }
  ctx.textAlign = 'left';
}

/** A PNG of the selected chart or of every chart of the tab, with the time axis and window underneath. */
export async function chartsPng(scope: 'tab' | 'chart', zone: DisplayZone): Promise<Blob> {
  const charts = chartsInScope(scope);
  const els = charts.flatMap((c) => {
    const el = document.querySelector<HTMLElement>(`[data-testid="chart"][data-chart-id="${c.id}"]`);
    return el ? [el] : [];
  });
  if (els.length === 0) throw new Error(scope === 'chart' ? 'no chart is selected: click a chart first' : 'the tab has no charts');
  for (const el of els) await drawn(el);
  const css = getComputedStyle(document.documentElement);
  const colors = { text: css.getPropertyValue('--text').trim() || '#1d2430', muted: css.getPropertyValue('--muted').trim() || '#6b7685' };
  const bg = css.getPropertyValue('--panel').trim() || '#ffffff';
  const width = Math.max(...els.map((e) => e.querySelector('.chart-canvas')?.getBoundingClientRect().width ?? e.clientWidth));
  const heights = els.map((e) => drawChart(null, e, 0, width, colors));
  const footer = 24;
  const height = heights.reduce((a, b) => a + b, 0) + AXIS_PX + footer;
  const scale = window.devicePixelRatio || 1;
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  ctx.scale(scale, scale);
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, width, height);
  let y = 0;
  els.forEach((el, i) => {
    drawChart(ctx, el, y, width, colors);
    y += heights[i] ?? 0;
  });
  // The tab's one time axis under the charts, as on screen and in pmchart's export.
  const first = els[0];
  const area = first ? surfaceOf(first)?.plotArea() : undefined;
  const t0Ms = Number(first?.dataset.windowStart);
  const t1Ms = Number(first?.dataset.windowEnd);
  if (area) drawTimeAxis(ctx, y, { boxPx: width, leftPx: area.left, rightPx: width - area.left - area.width }, t0Ms, t1Ms, zone, colors);
  y += AXIS_PX;
  const s = dash();
  ctx.fillStyle = colors.muted;
  ctx.font = FONT;
  ctx.textAlign = 'left';
  ctx.fillText(`${formatIso(s.positionMs - s.windowMs, zone)} – ${formatIso(s.positionMs, zone)} (${zone.label})`, 8, y + 16);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be encoded'))), 'image/png'));
}

export async function exportPng(scope: 'tab' | 'chart', zone: DisplayZone): Promise<void> {
  try {
    const png = await chartsPng(scope, zone);
    const s = dash();
    const label = scope === 'chart' ? (s.currentChartId ? s.charts[s.currentChartId]?.title : '') : s.tabs.find((t) => t.id === s.activeTabId)?.label;
    downloadBlob(png, `${safeFileName(label ?? '', 'pmdash')}.png`);
  } catch (e) {
    notify('error', `PNG export failed: ${e instanceof Error ? e.message : describeError(asEngineError(e))}`);
  }
}

/**
 * Each open archive's records in the visible window as a new PCP archive (a .tar of
 * BASE.meta, BASE.index, BASE.0). Archives the active tab charts come first; with none, every
 * ready archive.
 */
export async function exportArchives(): Promise<number> {
  const s = dash();
  const t0 = s.positionMs - s.windowMs;
  const t1 = s.positionMs;
  const inTab = new Set(chartsInScope('tab').flatMap((c) => c.plots.map((p) => p.sourceId)));
  const archives = s.sources.filter((x) => readyArchive(s.sources, x.id) && (inTab.size === 0 || inTab.has(x.id)));
  if (archives.length === 0) {
    notify('error', 'Archive export: no open archive is charted in this tab (live hosts cannot be exported as an archive)');
    return 0;
  }
  let done = 0;
  for (const src of archives) {
    if (src.handle === undefined) continue;
    try {
      // A shifted source is drawn at its own time + offsetMs: its records are at the window less that.
      const off = src.offsetMs ?? 0;
      const out = await getEngine().exportArchive(src.handle, t0 - off, t1 - off);
      downloadBlob(new Blob([...out.tarParts], { type: 'application/x-tar' }), `${out.base}.tar`);
      notify('info', `${out.base}.tar: ${out.records} records of ${src.summary?.name ?? src.label} (unpack with "tar xf ${out.base}.tar", then e.g. "pmdumplog -a ${out.base}")`);
      done++;
    } catch (e) {
      notify('error', `Archive export of ${src.summary?.name ?? src.label} failed: ${describeError(asEngineError(e))}`);
    }
  }
  return done;
}
