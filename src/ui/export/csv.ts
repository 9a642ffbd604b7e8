// CSV export of the data on screen (issue 8): the chart's series blocks — the values the
// engine computed, rate-converted as pmval does, in each column's own units — become RFC 4180
// text with one time column in the chosen display zone (ISO 8601 with its UTC offset, so a
// spreadsheet reads it unambiguously) and one column per metric and instance, headed with
// the metric, instance name and units. Missing values (NaN) are empty cells. Pure: the
// export action (export-actions.ts) fetches the blocks; csv.conformance.test.ts (in test/)
// checks the numbers against pmval.
import type { SeriesBlock } from '../../workers/engine-types';
import type { ChartSpec } from '../state/model';
import { formatIso, type DisplayZone } from '../time/zone';

/** One column of the export. */
export interface CsvColumn {
  readonly header: string;
  readonly values: Float64Array;
  /** Single-precision values (a FLOAT metric as fetched): printed as float32 (csvNumber). */
  readonly float32?: boolean;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The value in its type's own precision, empty when missing: the shortest text that reads
 * back as the same double, or for a float32 the shortest that reads back as the same float32
 * (a FLOAT 0.45 is stored as 0.44999998807907104 in a double; "0.45" reads back to it).
 */
export function csvNumber(v: number, float32 = false): string {
  if (Number.isNaN(v)) return '';
  if (!float32 || !Number.isFinite(v) || Math.fround(v) !== v) return String(v);
  // Nine significant digits always read back as the same float32; fewer often do.
  for (let p = 1; p < 9; p++) {
    const t = Number(v.toPrecision(p));
    if (Math.fround(t) === v) return String(t);
  }
  return String(Number(v.toPrecision(9)));
}

/** "+10:00" for an offset in minutes east of UTC. */
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(Math.round(minutes));
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** "2018-04-16T14:01:35.325+10:00": wall time in the zone with its offset. */
export function csvTime(ms: number, zone: DisplayZone): string {
  return `${formatIso(ms, zone).replace(' ', 'T')}${formatOffset(zone.offsetMinutes(ms))}`;
}

/** The header of a column: `host:metric[instance] (units)` (host only when asked). */
export function columnHeader(metric: string, instance: string, units: string, host?: string): string {
  const name = `${host ? `${host}:` : ''}${metric}${instance ? `[${instance}]` : ''}`;
  return units ? `${name} (${units})` : name;
}

/**
 * The columns of one chart from its sources' blocks (all on the same grid), in chart order;
 * plots that failed are left out. `hosts` names each source's host; with `withHost` the
 * headers carry it (an export of several sources).
 */
export function chartColumns(chart: ChartSpec, blocks: ReadonlyMap<string, SeriesBlock>, hosts: ReadonlyMap<string, string>, withHost: boolean): CsvColumn[] {
  const out: CsvColumn[] = [];
  const seen = new Map<string, number>();
  for (const plot of chart.plots) {
    const block = blocks.get(plot.sourceId);
    if (!block) continue;
    // Plots of one source are requested in chart order: this plot's index in that request.
    const index = chart.plots.filter((p) => p.sourceId === plot.sourceId).indexOf(plot);
    const info = block.plots[index];
    if (!info || info.error) continue;
    for (const col of block.columns) {
      if (col.plot !== index) continue;
      let header = columnHeader(plot.metric, col.instName, info.units.text, withHost ? hosts.get(plot.sourceId) : undefined);
      // The same metric twice in a chart (e.g. with two legends) keeps both columns apart.
      const n = (seen.get(header) ?? 0) + 1;
      seen.set(header, n);
      if (n > 1) header = `${header} #${n}`;
      out.push({ header, values: col.values, float32: info.float32 === true });
    }
  }
  return out;
}

/** The CSV text: a header row, then one row per timestamp. */
export function formatCsv(timesMs: Float64Array, columns: readonly CsvColumn[], zone: DisplayZone): string {
  const lines: string[] = [[`Time (${zone.label})`, ...columns.map((c) => c.header)].map(csvField).join(',')];
  for (let r = 0; r < timesMs.length; r++) {
    const row = [csvTime(timesMs[r] ?? NaN, zone)];
    for (const c of columns) row.push(csvNumber(c.values[r] ?? NaN, c.float32));
    lines.push(row.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
