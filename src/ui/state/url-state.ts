// The dashboard in the page address (issue 8): a versioned snapshot of what a link must
// reproduce — sources that can be reopened (archive URLs, live hosts), tabs, charts with their
// plots, the time position, interval, visible window (zoom), bounds and zone — as JSON in
// base64url after `#dash=`. Anything read back passes `restoreSnapshot`: the version is
// migrated, every field checked and defaulted, and what cannot be used is dropped with a
// warning instead of failing the whole link (Excalidraw's restore step; docs/design.md
// "Store"). Pure: url-sync.ts applies snapshots to the store and keeps the address current.
import type { ChartSpec, ChartStyle, PlotSpec, SourceEntry, TabSpec, YScale, ZoneChoice } from './model';
import { CHART_STYLES, seriesKey } from './model';
import type { InstanceSelector } from '../../workers/engine-types';

export const SNAPSHOT_VERSION = 1;
export const URL_KEY = 'dash';

/**
 * A source a link can reopen. Files cannot be (they live on the sender's disk): the link
 * names them, with the archive's name and host, so the recipient's drop binds to them.
 */
export type SnapshotSource = ({ readonly url: string } | { readonly host: string; readonly via?: 'pmproxy' } | { readonly files: readonly string[]; readonly name?: string; readonly hostname?: string }) & {
  /** An archive's time shift in ms (SourceEntry.offsetMs), when it has one. */
  readonly shift?: number;
};

export interface SnapshotPlot {
  /** Index into `sources`. */
  readonly s: number;
  readonly metric: string;
  readonly expr?: string;
  readonly instances: InstanceSelector;
  readonly legend?: string;
  readonly color?: string;
  /** Colours of single instances, by instance name. */
  readonly ic?: Readonly<Record<string, string>>;
  readonly optional?: boolean;
}

export interface SnapshotChart {
  readonly title: string;
  readonly style: ChartStyle;
  readonly yScale: YScale;
  readonly legend: boolean;
  readonly rate: boolean;
  readonly plots: readonly SnapshotPlot[];
  /** Hidden series as [plot index, instance name]. */
  readonly hidden: readonly (readonly [number, string])[];
  /** Plot height in CSS px when the user resized the chart. */
  readonly height?: number;
  /** The legend shown as a statistics table. */
  readonly table?: boolean;
  /** Each plot's top n instances by avg or max over the window. */
  readonly top?: { readonly n: number; readonly by: 'avg' | 'max' };
  /** A heatmap's cell aggregation, when not the default (max). */
  readonly agg?: 'avg';
}

export interface SnapshotTime {
  readonly positionMs?: number;
  readonly intervalMs?: number;
  /** The user fixed the interval (else it follows the window); absent in older links: fixed. */
  readonly intervalFixed?: boolean;
  readonly windowMs?: number;
  readonly zone: ZoneChoice;
  readonly bounds?: { readonly startMs: number; readonly endMs: number };
  readonly liveIntervalMs?: number;
  readonly liveHistoryMs?: number;
}

/** Version 1 of the snapshot (the `v` field names the version). */
export interface DashSnapshot {
  readonly v: typeof SNAPSHOT_VERSION;
  readonly sources: readonly SnapshotSource[];
  readonly tabs: readonly { readonly label: string; readonly charts: readonly SnapshotChart[] }[];
  readonly activeTab: number;
  readonly time: SnapshotTime;
}

/** What the snapshot is taken from: the store's state (a structural subset of DashState). */
export interface SnapshotInput {
  readonly sources: readonly SourceEntry[];
  readonly tabs: readonly TabSpec[];
  readonly activeTabId: string;
  readonly charts: Readonly<Record<string, ChartSpec>>;
  readonly positionMs: number;
  readonly intervalMs: number;
  readonly intervalFixed: boolean;
  readonly windowMs: number;
  readonly zone: ZoneChoice;
  readonly bounds: { readonly startMs: number; readonly endMs: number } | undefined;
  readonly liveIntervalMs: number;
  readonly liveHistoryMs: number;
}

function sourceOf(s: SourceEntry): SnapshotSource {
  const shift = s.offsetMs ? { shift: s.offsetMs } : {};
  switch (s.origin.kind) {
    case 'url': return { url: s.origin.url, ...shift };
    case 'live': return { host: s.origin.host, ...(s.origin.via && { via: s.origin.via }) };
    case 'files': return { files: s.origin.names, ...(s.summary && { name: s.summary.name, hostname: s.summary.hostname }), ...shift };
  }
}

/** The snapshot of a dashboard: only sources some chart uses, in first-use order. */
export function takeSnapshot(st: SnapshotInput): DashSnapshot {
  const used: string[] = [];
  const index = (sourceId: string): number => {
    let i = used.indexOf(sourceId);
    if (i < 0) i = used.push(sourceId) - 1;
    return i;
  };
  const tabs = st.tabs.map((t) => ({
    label: t.label,
    charts: t.chartIds.flatMap((id) => {
      const c = st.charts[id];
      if (!c) return [];
      const plots = c.plots.map((p): SnapshotPlot => ({
        s: index(p.sourceId),
        metric: p.metric,
        ...(p.expr !== undefined && { expr: p.expr }),
        instances: p.instances,
        ...(p.legend !== undefined && { legend: p.legend }),
        ...(p.color !== undefined && { color: p.color }),
        ...(p.instanceColors !== undefined && { ic: p.instanceColors }),
        ...(p.optional && { optional: true }),
      }));
      const hidden = c.plots.flatMap((p, i) => c.hidden.filter((k) => k.startsWith(seriesKey(p.id, ''))).map((k) => [i, k.slice(seriesKey(p.id, '').length)] as const));
      return [{ title: c.title, style: c.style, yScale: c.yScale, legend: c.legend, rate: c.rate, plots, hidden, ...(c.heightPx !== undefined && { height: c.heightPx }), ...(c.legendTable && { table: true }), ...(c.topN && { top: c.topN }), ...(c.heatmapAgg === 'avg' && { agg: 'avg' as const }) }];
    }),
  }));
  const finite = (x: number): number | undefined => (Number.isFinite(x) ? x : undefined);
  const sources = used.map((id) => {
    const s = st.sources.find((x) => x.id === id);
    return s ? sourceOf(s) : { files: [] };
  });
  return {
    v: SNAPSHOT_VERSION,
    sources,
    tabs,
    activeTab: Math.max(0, st.tabs.findIndex((t) => t.id === st.activeTabId)),
    time: {
      ...(finite(st.positionMs) !== undefined && { positionMs: st.positionMs }),
      intervalMs: st.intervalMs,
      intervalFixed: st.intervalFixed,
      windowMs: st.windowMs,
      zone: st.zone,
      ...(st.bounds && { bounds: st.bounds }),
      liveIntervalMs: st.liveIntervalMs,
      liveHistoryMs: st.liveHistoryMs,
    },
  };
}

// ----- encoding -----

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** `dash=…` for the address's fragment. */
export function encodeSnapshot(s: DashSnapshot): string {
  return `${URL_KEY}=${toBase64Url(new TextEncoder().encode(JSON.stringify(s)))}`;
}

export type RestoreResult = { readonly ok: true; readonly snapshot: DashSnapshot; readonly warnings: readonly string[] } | { readonly ok: false; readonly error: string };

/** The archive name of a dropped file ("20180416.10.00.meta.xz" → "20180416.10.00"). */
export function archiveBaseOf(path: string): string {
  const file = path.split('/').pop() ?? path;
  return file.replace(/\.(xz|gz|bz2|zst|lzma)$/, '').replace(/\.(meta|index|\d+)$/, '');
}

/**
 * Whether a source opened from dropped files is the one a link's files entry names: the
 * same archive name and host (links made before names were recorded: the same base names).
 */
export function filesMatch(want: { readonly files: readonly string[]; readonly name?: string; readonly hostname?: string }, got: { readonly name: string; readonly hostname: string; readonly files: readonly string[] }): boolean {
  if (want.name !== undefined) return want.name === got.name && (want.hostname === undefined || want.hostname === got.hostname);
  const bases = new Set(want.files.map(archiveBaseOf));
  return got.files.some((f) => bases.has(archiveBaseOf(f)));
}

/** Reads a snapshot from a fragment (`#dash=…`); undefined when the fragment has none. */
export function decodeFragment(hash: string): RestoreResult | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const text = params.get(URL_KEY);
  if (text === null) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(text)));
  } catch (e) {
    return { ok: false, error: `the dashboard in this link cannot be read (${e instanceof Error ? e.message : String(e)})` };
  }
  return restoreSnapshot(raw);
}

// ----- validation and migration -----

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const bool = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);
/** An instance → '#rrggbb' map from a link; anything else in it is left out. */
function colorMap(v: unknown): Record<string, string> | undefined {
  if (!isObj(v)) return undefined;
  const out = Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string' && /^#[0-9a-f]{6}$/i.test(e[1])));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Older snapshot versions, brought to the current one (none exist yet: v1 is the first). */
function migrate(raw: Obj): Obj | string {
  const v = raw.v;
  if (v === SNAPSHOT_VERSION) return raw;
  if (typeof v === 'number' && v > SNAPSHOT_VERSION) return `the link was made by a newer pmdash (dashboard version ${v}; this one reads up to ${SNAPSHOT_VERSION})`;
  return `the link holds no dashboard version pmdash knows (v = ${JSON.stringify(v)})`;
}

function restoreInstances(v: unknown): InstanceSelector | undefined {
  if (!isObj(v)) return undefined;
  switch (v.kind) {
    case 'all': return { kind: 'all' };
    case 'list': {
      if (!Array.isArray(v.names)) return undefined;
      const names = v.names.filter((n): n is string => typeof n === 'string');
      return names.length === v.names.length ? { kind: 'list', names } : undefined;
    }
    case 'matching':
    case 'not-matching': {
      const pattern = str(v.pattern);
      return pattern === undefined ? undefined : { kind: v.kind, pattern };
    }
    default: return undefined;
  }
}

function restoreYScale(v: unknown): YScale {
  if (isObj(v) && v.mode === 'fixed') {
    const min = num(v.min);
    const max = num(v.max);
    if (min !== undefined && max !== undefined && min < max) return { mode: 'fixed', min, max };
  }
  return { mode: 'auto' };
}

/**
 * Validates anything claimed to be a snapshot: migrates it, keeps every usable part, and
 * lists what it dropped. Fails only when nothing sensible is left.
 */
export function restoreSnapshot(input: unknown): RestoreResult {
  if (!isObj(input)) return { ok: false, error: 'the link holds no dashboard' };
  const raw = migrate(input);
  if (typeof raw === 'string') return { ok: false, error: raw };
  const warnings: string[] = [];
  const sources: SnapshotSource[] = (Array.isArray(raw.sources) ? raw.sources : []).map((s: unknown, i): SnapshotSource => {
    const shift = isObj(s) && typeof s.shift === 'number' && Number.isFinite(s.shift) && s.shift !== 0 ? { shift: s.shift } : {};
    if (isObj(s) && typeof s.url === 'string') return { url: s.url, ...shift };
    if (isObj(s) && typeof s.host === 'string') return { host: s.host, ...(s.via === 'pmproxy' && { via: 'pmproxy' as const }) };
    if (isObj(s) && Array.isArray(s.files)) {
      const name = str(s.name);
      const hostname = str(s.hostname);
      return { files: s.files.filter((f): f is string => typeof f === 'string'), ...(name !== undefined && { name }), ...(hostname !== undefined && { hostname }), ...shift };
    }
    warnings.push(`source ${i + 1} is not an archive URL, a host or a list of files`);
    return { files: [] };
  });
  const tabs = (Array.isArray(raw.tabs) ? raw.tabs : []).flatMap((t: unknown, ti) => {
    if (!isObj(t)) {
      warnings.push(`tab ${ti + 1} is not a tab`);
      return [];
    }
    const charts = (Array.isArray(t.charts) ? t.charts : []).flatMap((c: unknown, ci): SnapshotChart[] => {
      const where = `chart ${ci + 1} of tab ${ti + 1}`;
      if (!isObj(c)) {
        warnings.push(`${where} is not a chart`);
        return [];
      }
      const plots = (Array.isArray(c.plots) ? c.plots : []).flatMap((p: unknown, pi): SnapshotPlot[] => {
        const instances = isObj(p) ? restoreInstances(p.instances) : undefined;
        const s = isObj(p) ? num(p.s) : undefined;
        const metric = isObj(p) ? str(p.metric) : undefined;
        if (!isObj(p) || s === undefined || !Number.isInteger(s) || s < 0 || s >= sources.length || !metric || !instances) {
          warnings.push(`plot ${pi + 1} of ${where} is incomplete and was left out`);
          return [];
        }
        const expr = str(p.expr);
        const legend = str(p.legend);
        const color = str(p.color);
        const ic = colorMap(p.ic);
        return [{ s, metric, ...(expr !== undefined && { expr }), instances, ...(legend !== undefined && { legend }), ...(color !== undefined && { color }), ...(ic !== undefined && { ic }), ...(p.optional === true && { optional: true }) }];
      });
      const style = CHART_STYLES.includes(c.style as ChartStyle) ? (c.style as ChartStyle) : 'line';
      if (style !== c.style) warnings.push(`${where}: unknown style ${JSON.stringify(c.style)}, drawn as lines`);
      const hidden = (Array.isArray(c.hidden) ? c.hidden : []).filter(
        (h): h is [number, string] => Array.isArray(h) && h.length === 2 && typeof h[0] === 'number' && Number.isInteger(h[0]) && h[0] >= 0 && h[0] < plots.length && typeof h[1] === 'string',
      );
      const height = num(c.height);
      const top = isObj(c.top) ? num(c.top.n) : undefined;
      const by = isObj(c.top) && (c.top.by === 'avg' || c.top.by === 'max') ? c.top.by : undefined;
      return [{ title: str(c.title) ?? '', style, yScale: restoreYScale(c.yScale), legend: bool(c.legend, true), rate: bool(c.rate, true), plots, hidden, ...(height !== undefined && height >= 40 && height <= 2000 && { height: Math.round(height) }), ...(c.table === true && { table: true }), ...(top !== undefined && by !== undefined && Number.isInteger(top) && top >= 1 && top <= 1000 && { top: { n: top, by } }), ...(c.agg === 'avg' && { agg: 'avg' as const }) }];
    });
    return [{ label: str(t.label) ?? `Tab ${ti + 1}`, charts }];
  });
  if (tabs.length === 0) tabs.push({ label: 'Overview', charts: [] });
  const t = isObj(raw.time) ? raw.time : {};
  const zone: ZoneChoice = t.zone === 'local' || t.zone === 'utc' || t.zone === 'archive' ? t.zone : typeof t.zone === 'string' && /^tz:./.test(t.zone) ? (t.zone as `tz:${string}`) : 'archive';
  const positive = (v: unknown): number | undefined => {
    const n = num(v);
    return n !== undefined && n > 0 ? n : undefined;
  };
  const b = isObj(t.bounds) ? { startMs: num(t.bounds.startMs), endMs: num(t.bounds.endMs) } : undefined;
  const time: SnapshotTime = {
    zone,
    ...(num(t.positionMs) !== undefined && { positionMs: num(t.positionMs) }),
    ...(positive(t.intervalMs) !== undefined && { intervalMs: positive(t.intervalMs) }),
    ...(typeof t.intervalFixed === 'boolean' && { intervalFixed: t.intervalFixed }),
    ...(positive(t.windowMs) !== undefined && { windowMs: positive(t.windowMs) }),
    ...(b?.startMs !== undefined && b.endMs !== undefined && b.endMs > b.startMs && { bounds: { startMs: b.startMs, endMs: b.endMs } }),
    ...(positive(t.liveIntervalMs) !== undefined && { liveIntervalMs: positive(t.liveIntervalMs) }),
    ...(positive(t.liveHistoryMs) !== undefined && { liveHistoryMs: positive(t.liveHistoryMs) }),
  };
  const active = num(raw.activeTab);
  return {
    ok: true,
    snapshot: { v: SNAPSHOT_VERSION, sources, tabs, activeTab: active !== undefined && Number.isInteger(active) && active >= 0 && active < tabs.length ? active : 0, time },
    warnings,
  };
}

/** The store layout of a snapshot, with source index → store id given by `sourceIds`. */
export function snapshotLayout(s: DashSnapshot, sourceIds: readonly (string | undefined)[], firstSerial = 0): { tabs: TabSpec[]; charts: Record<string, ChartSpec>; idSerial: number; activeTabId: string; dropped: number } {
  let serial = firstSerial;
  const next = (p: string): string => `${p}${++serial}`;
  const charts: Record<string, ChartSpec> = {};
  let dropped = 0;
  const tabs = s.tabs.map((t): TabSpec => {
    const id = next('t');
    const chartIds = t.charts.map((c) => {
      const cid = next('c');
      const plots: PlotSpec[] = [];
      const hidden: string[] = [];
      c.plots.forEach((p, i) => {
        const sourceId = sourceIds[p.s];
        if (sourceId === undefined) {
          dropped++;
          return;
        }
        const plot: PlotSpec = { id: next('p'), sourceId, metric: p.metric, instances: p.instances, ...(p.expr !== undefined && { expr: p.expr }), ...(p.legend !== undefined && { legend: p.legend }), ...(p.color !== undefined && { color: p.color }), ...(p.ic !== undefined && { instanceColors: p.ic }), ...(p.optional && { optional: true }) };
        plots.push(plot);
        for (const [pi, inst] of c.hidden) if (pi === i) hidden.push(seriesKey(plot.id, inst));
      });
      charts[cid] = { id: cid, title: c.title, style: c.style, yScale: c.yScale, legend: c.legend, rate: c.rate, plots, hidden, ...(c.height !== undefined && { heightPx: c.height }), ...(c.table && { legendTable: true }), ...(c.top && { topN: c.top }), ...(c.agg && { heatmapAgg: c.agg }) };
      return cid;
    });
    return { id, label: t.label, chartIds };
  });
  return { tabs, charts, idSerial: serial, activeTabId: tabs[s.activeTab]?.id ?? tabs[0]?.id ?? 't1', dropped };
}
