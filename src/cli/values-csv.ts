// `pmdash values -o csv`: pmrep's CSV (pmrep -o csv, pcp2csv without its options):
//   Time,"kernel.all.load-1 minute","kernel.all.load-5 minute",...,"hinv.ncpu"
//   2018-06-05 14:10:12,0.140,0.090,0.030,1
// - one column per metric and instance, instances in the order of the metric's whole
//   instance domain (pmGetInDomArchive for archives, pmGetInDom live), "NAME-INSTANCE" (a
//   singular metric: its name); a delimiter, quote or newline in a name becomes a space;
// - Time: "%Y-%m-%d %H:%M:%S" of the sample time in the reporting zone (no fraction);
// - values as pmrep's fetchgroup gives them: counters (unless -r) as rates per second of the
//   metric's own units (no time-utilisation scaling; Δt as fetchgroups take it), none on the
//   first sample or after a decrease; FLOAT, DOUBLE and rates with three decimals ("%.3f"),
//   inf, -inf and NaN spelled so; integers as they are; strings in double quotes with quotes,
//   newlines and the delimiter made spaces; no value: an empty field.
import { fetchgroupDelta, fetchgroupRate } from '../pcp-core/rate';
import { formatFixedC } from '../pcp-core/c-numeric';
import type { Zone } from '../pcp-core/time';
import type { Timestamp } from '../pcp-core/types';
import { PM_INDOM_NULL, PM_SEM_COUNTER, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING, isNumericType } from '../pcp-core/types';
import { toDouble } from '../pcp-core/values';
import type { Sample, SampledMetric, SampleValue } from './values-sampler';

/** A column: metric index and instance id (-1 singular). */
interface Column {
  readonly metric: number;
  readonly inst: number;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

export class CsvWriter {
  private readonly columns: Column[] = [];
  /** Per metric: whether pmrep converts it to a rate (a numeric counter, unless -r). */
  private readonly rate: boolean[];
  private prev: Sample | undefined;

  /**
   * `metrics` were sampled raw (no rate conversion); `instances[j]` is metric j's whole
   * instance domain in order (undefined: singular).
   */
  constructor(
    private readonly metrics: readonly SampledMetric[],
    instances: ReadonlyArray<readonly number[] | undefined>,
    raw: boolean,
    private readonly zone: Zone,
    private readonly counterWrap: boolean,
  ) {
    metrics.forEach((m, j) => {
      const insts = m.desc.indom === PM_INDOM_NULL ? [-1] : (instances[j] ?? []);
      for (const inst of insts) this.columns.push({ metric: j, inst });
    });
    this.rate = metrics.map((m) => !raw && m.desc.sem === PM_SEM_COUNTER && isNumericType(m.desc.type));
  }

  header(): string {
    const names = this.columns.map(({ metric, inst }) => {
      const m = this.metrics[metric];
      const name = m.desc.indom === PM_INDOM_NULL ? m.name : `${m.name}-${m.instName(inst)}`;
      return `"${name.replace(/[,\n"]/g, ' ')}"`;
    });
    return `Time,${names.join(',')}\n`;
  }

  private time(t: Timestamp): string {
    const tm = this.zone.localtime(t.sec);
    return `${tm.year}-${pad2(tm.month + 1)}-${pad2(tm.mday)} ${pad2(tm.hour)}:${pad2(tm.min)}:${pad2(tm.sec)}`;
  }

  private static real(v: number): string {
    if (Number.isNaN(v)) return 'NaN';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    return formatFixedC(v, 3);
  }

  private cell(j: number, inst: number, s: Sample): string {
    const find = (sample: Sample | undefined): SampleValue | undefined => sample?.values[j]?.find(([i]) => i === inst)?.[1];
    const v = find(s);
    if (v === undefined || v === null) return '';
    const m = this.metrics[j];
    if (typeof v === 'string') return m.desc.type === PM_TYPE_STRING ? `"${v.replace(/[,\n"]/g, ' ')}"` : '';
    if (this.rate[j]) {
      const p = find(this.prev);
      if (p === undefined || p === null || typeof p === 'string' || !this.prev) return '';
      const r = fetchgroupRate(toDouble(p, m.desc.type), toDouble(v, m.desc.type), fetchgroupDelta(this.prev.time, s.time), m.desc.type, this.counterWrap);
      return typeof r === 'number' ? CsvWriter.real(r) : '';
    }
    if (m.desc.type === PM_TYPE_FLOAT || m.desc.type === PM_TYPE_DOUBLE) return CsvWriter.real(Number(v));
    return v.toString();
  }

  /** One sample's line. */
  line(s: Sample): string {
    let out = this.time(s.time);
    for (const { metric, inst } of this.columns) out += `,${this.cell(metric, inst, s)}`;
    this.prev = s;
    return `${out}\n`;
  }
}
