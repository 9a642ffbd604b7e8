// Output of `pmdash values`. With --json, one JSON object per line:
//   {"kind":"header","metrics":{"NAME":{"pmid":"60.0.20","type":"U64","sem":"counter","indom":"60.1","units":"millisec"}}}
//   {"kind":"sample","time":"2011-12-14T20:31:56.000000000Z","values":{"NAME":{"INSTANCE":value}}}
// - type as pmTypeStr, sem as pmSemStr, units exactly as pmUnitsStr prints them ("" when
//   dimensionless), indom null for a singular metric;
// - time: UTC, ISO-8601 with nine fractional digits;
// - values keyed by instance name ("" for a singular metric, always present), in the fetch
//   result's order; a number (rates and floating point as the shortest round-trip decimal,
//   64-bit raw values as exact integers), a string, or null when there is no value.
// Without --json, a table in the style of pmval/pmrep: one column per metric instance, one
// row per sample, values printed as pmval prints them.
import { formatIsoUtc } from '../pcp-core/archive/timestamps';
import type { Timestamp } from '../pcp-core/types';
import { PM_INDOM_NULL, formatInDom, formatPmId, formatSem, formatType } from '../pcp-core/types';
import { formatUnits } from '../pcp-core/units';
import { pmvalUnitsText } from '../pcp-core/rate';
import type { Sample, SampledMetric, SampleValue } from './values-sampler';

function jsonValue(v: SampleValue): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return JSON.stringify(v);
  return Number.isFinite(v) ? String(v) : 'null';
}

export function jsonHeader(metrics: readonly SampledMetric[]): string {
  const parts = metrics.map((m) => {
    const d = m.desc;
    const body = `{"pmid":${JSON.stringify(formatPmId(d.pmid))},"type":${JSON.stringify(formatType(d.type))},"sem":${JSON.stringify(formatSem(d.sem))},"indom":${d.indom === PM_INDOM_NULL ? 'null' : JSON.stringify(formatInDom(d.indom))},"units":${JSON.stringify(formatUnits(d.units))}}`;
    return `${JSON.stringify(m.name)}:${body}`;
  });
  return `{"kind":"header","metrics":{${parts.join(',')}}}`;
}

export function jsonSample(metrics: readonly SampledMetric[], s: Sample): string {
  const parts = metrics.map((m, j) => {
    const vals = (s.values[j] ?? []).map(([inst, v]) => `${JSON.stringify(m.instName(inst))}:${jsonValue(v)}`);
    // A singular metric always has its one "" entry: null when the fetch returned no value.
    if (vals.length === 0 && m.desc.indom === PM_INDOM_NULL) vals.push('"":null');
    return `${JSON.stringify(m.name)}:{${vals.join(',')}}`;
  });
  return `{"kind":"sample","time":${JSON.stringify(formatIsoUtc(s.time))},"values":{${parts.join(',')}}}`;
}

/** C's "%.3E" (two-digit exponent at least). */
function exp3(v: number): string {
  const [mant, e] = v.toExponential(3).split('e') as [string, string];
  const n = Number(e);
  return `${mant}E${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
}

/** pmval's printreal: 0 → "0.0", < 0.1 or > 9999 → %.3E, then 4/3/2/1 decimals by size. */
export function pmvalReal(v: number): string {
  if (v === 0) return '0.0';
  const a = Math.abs(v);
  if (a < 0.1 || a > 9999) return exp3(v);
  if (a <= 0.9999) return v.toFixed(4);
  if (a <= 9.999) return v.toFixed(3);
  if (a <= 99.99) return v.toFixed(2);
  if (a <= 999.9) return v.toFixed(1);
  return `${v.toFixed(0)}.`;
}

function cell(v: SampleValue | undefined, floating: boolean): string {
  if (v === undefined || v === null) return '?';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  return floating ? pmvalReal(v) : String(v);
}

export interface TableInfo {
  readonly source: string;
  readonly host: string;
  readonly timeLabel: string;
  readonly intervalSec?: number;
  readonly raw: boolean;
}

/** The whole table for a finished run (columns are known once every sample is in). */
export function formatTable(metrics: readonly SampledMetric[], samples: readonly Sample[], info: TableInfo, formatTime: (t: Timestamp) => string): string {
  const lines: string[] = [];
  lines.push(`source:    ${info.source}`);
  lines.push(`host:      ${info.host}`);
  if (info.intervalSec !== undefined) lines.push(`interval:  ${info.intervalSec.toFixed(2)} sec`);
  lines.push(`time zone: ${info.timeLabel}`);
  for (const m of metrics) {
    lines.push(`metric:    ${m.name}  [${formatSem(m.desc.sem)}, ${formatType(m.desc.type)}]  units: ${pmvalUnitsText(m.desc, info.raw || !m.rate)}`);
  }
  lines.push('');
  // Columns: every (metric, instance) seen, in order of first appearance.
  const cols: { m: number; inst: number }[] = [];
  const seen = new Set<string>();
  for (const s of samples) {
    s.values.forEach((vals, m) => {
      for (const [inst] of vals) {
        const key = `${m}:${inst}`;
        if (!seen.has(key)) {
          seen.add(key);
          cols.push({ m, inst });
        }
      }
    });
  }
  metrics.forEach((m, j) => {
    if (!cols.some((c) => c.m === j)) cols.push({ m: j, inst: Number.NaN });
  });
  cols.sort((a, b) => a.m - b.m);
  const head1 = cols.map((c) => (metrics[c.m]).name);
  const head2 = cols.map((c) => (Number.isNaN(c.inst) || c.inst === -1 ? '' : (metrics[c.m]).instName(c.inst)));
  const rows = samples.map((s) =>
    cols.map((c) => {
      const m = metrics[c.m];
      const hit = (s.values[c.m] ?? []).find(([inst]) => inst === c.inst);
      return cell(hit?.[1], m.rate || m.desc.type === 4 || m.desc.type === 5);
    }),
  );
  const times = samples.map((s) => formatTime(s.time));
  const tw = Math.max(4, ...times.map((t) => t.length));
  const widths = cols.map((_, i) => Math.max(head1[i].length, head2[i].length, ...rows.map((r) => r[i].length)));
  const line = (first: string, cells: readonly string[]): string => [first.padEnd(tw), ...cells.map((c, i) => c.padStart(widths[i]))].join('  ').trimEnd();
  lines.push(line('', head1));
  if (head2.some((h) => h !== '')) lines.push(line('', head2));
  rows.forEach((r, k) => lines.push(line(times[k], r)));
  return lines.join('\n') + '\n';
}
