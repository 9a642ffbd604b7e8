// Output of `pmdash values`. With --json, one JSON object per line:
//   {"kind":"header","metrics":{"NAME":{"pmid":"60.0.20","type":"U64","sem":"counter","indom":"60.1","units":"millisec"}}}
//   {"kind":"sample","time":"2011-12-14T20:31:56.000000000Z","values":{"NAME":{"INSTANCE":value}}}
// - type as pmTypeStr, sem as pmSemStr, units exactly as pmUnitsStr prints them ("" when
//   dimensionless), indom null for a singular metric;
// - time: UTC, ISO-8601 with nine fractional digits;
// - values keyed by instance name ("" for a singular metric, always present), in the fetch
//   result's order; a number (rates and floating point as the shortest round-trip decimal,
//   64-bit raw values as exact integers), a string, or null when there is no value; a
//   floating-point infinity or NaN (a derived division by zero) is the string "Infinity",
//   "-Infinity" or "NaN" (JSON has no such numbers), never null.
// Without --json, a table in the style of pmval/pmrep: one column per metric instance, one
// row per sample, values printed as pmval prints them.
import { formatIsoUtc } from '../pcp-core/time/format';
import type { Timestamp } from '../pcp-core/types';
import { PM_INDOM_NULL, PM_SEM_COUNTER, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, formatInDom, formatPmId, formatSem, formatType } from '../pcp-core/types';
import { formatUnits } from '../pcp-core/units';
import { pmvalUnitsText } from '../pcp-core/rate';
import { formatExpC, formatFixedC } from '../pcp-core/c-numeric';
import { ByteWriter } from '../pcp-core/io/byte-writer';
import type { TimeWriter } from './values-time';
import { isSampleRun, type Sample, type SampledMetric, type SampleRun, type SampleValue, type Taken } from './values-sampler';

function jsonValue(v: SampleValue): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return JSON.stringify(v);
  if (Number.isFinite(v)) return String(v);
  // JSON has no infinities or NaN: strings, so they stay distinct from null (no value).
  return Number.isNaN(v) ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"';
}

export function jsonHeader(metrics: readonly SampledMetric[]): string {
  const parts = metrics.map((m) => {
    const d = m.desc;
    const body = `{"pmid":${JSON.stringify(formatPmId(d.pmid))},"type":${JSON.stringify(formatType(d.type))},"sem":${JSON.stringify(formatSem(d.sem))},"indom":${d.indom === PM_INDOM_NULL ? 'null' : JSON.stringify(formatInDom(d.indom))},"units":${JSON.stringify(formatUnits(d.units))}}`;
    return `${JSON.stringify(m.name)}:${body}`;
  });
  return `{"kind":"header","metrics":{${parts.join(',')}}}`;
}

/** One sample's JSON line; per metric, its quoted name and instance names are built once. */
export function jsonSampleFormatter(metrics: readonly SampledMetric[]): (s: Sample) => string {
  const names = metrics.map((m) => JSON.stringify(m.name));
  const quoted = metrics.map(() => new Map<number, string>());
  return (s) => {
    let out = `{"kind":"sample","time":${JSON.stringify(formatIsoUtc(s.time))},"values":{`;
    for (let j = 0; j < metrics.length; j++) {
      const m = metrics[j];
      if (j > 0) out += ',';
      out += names[j] + ':{';
      const vals = s.values[j] ?? [];
      for (let k = 0; k < vals.length; k++) {
        // Indexed, not destructured: array destructuring walks the iterator protocol, which
        // a replay pays per value until the JIT has compiled this loop.
        const pair = vals[k];
        const inst = pair[0];
        const v = pair[1];
        let q = quoted[j].get(inst);
        if (q === undefined) quoted[j].set(inst, (q = JSON.stringify(m.instName(inst))));
        out += (k > 0 ? ',' : '') + q + ':' + jsonValue(v);
      }
      // A singular metric always has its one "" entry: null when the fetch returned no value.
      if (vals.length === 0 && m.desc.indom === PM_INDOM_NULL) out += '"":null';
      out += '}';
    }
    return out + '}}';
  };
}

/** How pmval prints values: -f N (fixed decimals) or its printreal rules. */
export interface CellStyle {
  readonly fixed?: number;
}

/**
 * pmval's printreal, without its padding: a negative counter is "!"; with -f N, "%.Nf";
 * else 0 → "0.0", < 0.1 or > 9999 → "%.3E", then 4/3/2/1/0 decimals by size (a NaN falls
 * through every test to the last: "%.0f." gives "-nan."). Infinities and NaN are spelled as
 * glibc prints them (INF, -INF; inf, -inf, -nan with -f).
 */
export function pmvalReal(v: number, sem: number, style: CellStyle = {}): string {
  if (v < 0 && sem === PM_SEM_COUNTER) return '!';
  // glibc prints a NaN's sign, and x86 arithmetic (inf - inf, 0 * inf in libpcp's derived
  // metrics) makes negative ones; JavaScript engines do not keep a NaN's sign reliably, so a
  // NaN is printed as that default NaN.
  if (Number.isNaN(v)) return style.fixed !== undefined ? '-nan' : '-nan.';
  if (style.fixed !== undefined) return formatFixedC(v, style.fixed);
  if (v === 0) return `${formatFixedC(v, 0)}.0`;
  if (v < 0.1 || v > 9999) return formatExpC(v, 3).toUpperCase();
  if (v <= 0.9999) return formatFixedC(v, 4);
  if (v <= 9.999) return formatFixedC(v, 3);
  if (v <= 99.99) return formatFixedC(v, 2);
  if (v <= 999.9) return formatFixedC(v, 1);
  return `${formatFixedC(v, 0)}.`;
}

/** One table cell as pmval prints the value. */
export function cell(v: SampleValue | undefined, floating: boolean, sem: number, style: CellStyle): string {
  if (v === undefined || v === null) return '?';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  return floating ? pmvalReal(v, sem, style) : String(v);
}

/** The lines above the table: source, host, interval, zone, one per metric, a blank. */
export function tablePreamble(metrics: readonly SampledMetric[], info: TableInfo): string[] {
  const lines: string[] = [];
  lines.push(`source:    ${info.source}`);
  lines.push(`host:      ${info.host}`);
  if (info.intervalSec !== undefined) lines.push(`interval:  ${info.intervalSec.toFixed(2)} sec`);
  lines.push(`time zone: ${info.timeLabel}`);
  for (const m of metrics) {
    lines.push(`metric:    ${m.name}  [${formatSem(m.desc.sem)}, ${formatType(m.desc.type)}]  units: ${pmvalUnitsText(m.desc, info.raw || !m.rate)}`);
  }
  lines.push('');
  return lines;
}

export interface TableInfo {
  readonly source: string;
  readonly host: string;
  readonly timeLabel: string;
  readonly intervalSec?: number;
  readonly raw: boolean;
}

/** TableBuilder's first capacities: rows (and entries), and bytes of cell and time text. */
const INITIAL_ROWS = 16;
const INITIAL_BYTES = 256;
/** Room a TimeWriter may write a time into. */
const TIME_ROOM = 32;

/** JavaScript's trimEnd whitespace among ASCII bytes: tab, line feed, VT, form feed, CR, space. */
function isAsciiSpace(b: number): boolean {
  return b === 32 || (b >= 9 && b <= 13);
}

/**
 * Builds the table sample by sample: each sample's cells are formatted as it arrives and their
 * text kept as bytes back to back in one buffer, so a long run retains no string per value
 * (young-generation GCs copied every retained one) and the rows are then written into one
 * output buffer, not built as strings and joined. A cell or time with a non-ASCII character
 * (a string value, a zone's name) is kept as its string; its row is built as a string.
 * Columns are every (metric, instance) seen, each metric's by ascending instance id (pmval's
 * order).
 */
export class TableBuilder {
  /** Per metric: instance id → column within the metric, in order of first appearance. */
  private readonly colOf: Map<number, number>[];
  private readonly colInst: number[][];
  private readonly floating: boolean[];
  /** The semantics printreal is given: a rate's is a counter's. */
  private readonly sem: number[];
  /** Row k's time is bytes [timeAt[k], timeAt[k+1]) of `timeBytes`. */
  // Every buffer starts small: it grows several times in the first few hundred samples,
  // before V8 optimizes add(), so the growth paths are compiled with it rather than
  // deoptimizing it when first reached later.
  private readonly timeBytes = new ByteWriter(INITIAL_BYTES);
  private timeAt = new Int32Array(INITIAL_ROWS + 1);
  /** Row k's entries are [rowStart[k], rowStart[k+1]) of entryMetric/entryCol/entryAt. */
  private rowStart = new Int32Array(INITIAL_ROWS + 1);
  private entryMetric = new Int32Array(INITIAL_ROWS);
  private entryCol = new Int32Array(INITIAL_ROWS);
  /** Entry e's text is bytes [entryAt[e], entryAt[e+1]) of `cellBytes`. */
  private entryAt = new Int32Array(INITIAL_ROWS);
  private readonly cellBytes = new ByteWriter(INITIAL_BYTES);
  /** Texts that are not ASCII, by entry (cells) and by row (times); their bytes are empty. */
  private readonly wideCell = new Map<number, string>();
  private readonly wideTime = new Map<number, string>();
  /** Rows holding a wide text. */
  private readonly wideRows = new Set<number>();
  /** 1 where a run's row repeats the cells of the row above (the same columns and values,
   *  so the same texts): it keeps no entries, and finish copies the bytes of that row's
   *  cells. Interpolation makes most rows of a run so (a counter's rate is constant between
   *  two records); one copy per row replaces a loop per byte that runs uncompiled at first. */
  private sameCells = new Uint8Array(INITIAL_ROWS);
  /** The last run's instance arrays, and per column of it the metric and its column there. */
  private runInst: readonly Int32Array[] = [];
  private runMetric = new Int32Array(0);
  private runCol = new Int32Array(0);
  private rows = 0;
  private entries = 0;
  /** Per metric and column: the widest cell so far, and the last row that had one (a row
   *  shows an instance's first value only). Kept as cells arrive: finish needs no pass for it. */
  private readonly colWidth: number[][];
  private readonly colRow: number[][];
  /** The widest time so far. */
  private timeWidth = 0;
  /** Per metric and column: the last value and its text. Interpolation makes most cells
   *  repeat the one above (an instantaneous value between records, a counter's rate as the
   *  same rounded steps), and formatting a number costs a replay more than fetching it. */
  private readonly lastValue: (SampleValue | undefined)[][];
  private readonly lastText: string[][];

  /**
   * @param formatTime a row's time as text
   * @param writeTime the same as ASCII bytes, when it can (no string per row)
   */
  constructor(
    private readonly metrics: readonly SampledMetric[],
    private readonly formatTime: (t: Timestamp) => string,
    private readonly style: CellStyle & { readonly width?: number } = {},
    private readonly writeTime?: TimeWriter,
  ) {
    this.colOf = metrics.map(() => new Map<number, number>());
    this.colInst = metrics.map((): number[] => []);
    this.colWidth = metrics.map((): number[] => []);
    this.colRow = metrics.map((): number[] => []);
    this.lastValue = metrics.map((): (SampleValue | undefined)[] => []);
    this.lastText = metrics.map((): string[] => []);
    this.floating = metrics.map((m) => m.rate || m.desc.type === PM_TYPE_FLOAT || m.desc.type === PM_TYPE_DOUBLE);
    this.sem = metrics.map((m) => (m.rate ? PM_SEM_COUNTER : m.desc.sem));
  }

  /** A batch of samples (and runs of them), in order. */
  addAll(taken: readonly Taken[]): void {
    for (let i = 0; i < taken.length; i++) {
      const t = taken[i];
      if (isSampleRun(t)) this.addRun(t);
      else this.add(t);
    }
  }

  add(s: Sample): void {
    const row = this.beginRow(s.time.sec, s.time.nsec);
    for (let j = 0; j < this.metrics.length; j++) {
      const vals = s.values[j];
      if (!vals) continue;
      for (let k = 0; k < vals.length; k++) {
        // Indexed, not destructured (see jsonSampleFormatter).
        const pair = vals[k];
        this.addCell(row, j, this.column(j, pair[0]), pair[1]);
      }
    }
    this.rowStart[++this.rows] = this.entries;
  }

  /** A run's samples: its columns looked up once (or not at all when the run before had the
   *  same instance arrays, as the replay gives while they do not change), then its values
   *  row by row. */
  addRun(r: SampleRun): void {
    const width = r.width;
    if (!sameArrays(r.inst, this.runInst)) {
      this.runInst = r.inst;
      this.runMetric = new Int32Array(width);
      this.runCol = new Int32Array(width);
      let x = 0;
      for (let j = 0; j < r.inst.length; j++) {
        const ids = r.inst[j];
        for (let q = 0; q < ids.length; q++, x++) {
          this.runMetric[x] = j;
          this.runCol[x] = this.column(j, ids[q]);
        }
      }
    }
    const metricOf = this.runMetric;
    const colOf = this.runCol;
    for (let k = 0; k < r.count; k++) {
      const row = this.beginRow(r.sec[k], r.nsec[k]);
      const at = k * width;
      if (k > 0 && sameRowValues(r.values, r.missing, at, width)) this.sameCells[row] = 1;
      else for (let c = 0; c < width; c++) this.addCell(row, metricOf[c], colOf[c], r.missing[at + c] ? null : r.values[at + c]);
      this.rowStart[++this.rows] = this.entries;
    }
  }

  /** A new row at time (sec, nsec): its time text kept; returns its index. */
  private beginRow(sec: number, nsec: number): number {
    const row = this.rows;
    if (row + 2 > this.rowStart.length) {
      this.rowStart = grow(this.rowStart);
      this.timeAt = grow(this.timeAt);
      const same = new Uint8Array(this.rowStart.length);
      same.set(this.sameCells);
      this.sameCells = same;
    }
    const from = this.timeBytes.length;
    const end = this.writeTime ? this.writeTime(sec, nsec, this.timeBytes.reserve(TIME_ROOM), from) : -1;
    if (end >= 0) {
      this.timeBytes.length = end;
      if (end - from > this.timeWidth) this.timeWidth = end - from;
    } else {
      const time = this.formatTime({ sec, nsec });
      if (!this.timeBytes.ascii(time)) {
        this.wideTime.set(row, time);
        this.wideRows.add(row);
      }
      if (time.length > this.timeWidth) this.timeWidth = time.length;
    }
    this.timeAt[row + 1] = this.timeBytes.length;
    return row;
  }

  /** Metric j's column for instance `inst` (a new one the first time it is seen). */
  private column(j: number, inst: number): number {
    const colOf = this.colOf[j];
    let c = colOf.get(inst);
    if (c === undefined) {
      c = this.colInst[j].length;
      colOf.set(inst, c);
      this.colInst[j].push(inst);
      this.colWidth[j].push(0);
      this.colRow[j].push(-1);
      this.lastValue[j].push(undefined);
      this.lastText[j].push('');
    }
    return c;
  }

  /** Row `row`'s next entry: value `v` in metric j's column c. */
  private addCell(row: number, j: number, c: number, v: SampleValue): void {
    const e = this.entries++;
    if (e + 2 > this.entryAt.length) {
      this.entryMetric = grow(this.entryMetric);
      this.entryCol = grow(this.entryCol);
      this.entryAt = grow(this.entryAt);
    }
    this.entryMetric[e] = j;
    this.entryCol[e] = c;
    const lastValue = this.lastValue[j];
    const lastText = this.lastText[j];
    let text = lastText[c];
    if (!sameValue(lastValue[c], v)) {
      text = lastText[c] = cell(v, this.floating[j], this.sem[j], this.style);
      lastValue[c] = v;
    }
    if (!this.cellBytes.ascii(text)) {
      this.wideCell.set(e, text);
      this.wideRows.add(row);
    }
    this.entryAt[e + 1] = this.cellBytes.length;
    const colRow = this.colRow[j];
    if (colRow[c] !== row) {
      colRow[c] = row;
      const colWidth = this.colWidth[j];
      if (text.length > colWidth[c]) colWidth[c] = text.length;
    }
  }

  private cellText(e: number): string {
    return this.wideCell.get(e) ?? asciiText(this.cellBytes.current(), this.entryAt[e], this.entryAt[e + 1]);
  }

  private timeText(k: number): string {
    return this.wideTime.get(k) ?? asciiText(this.timeBytes.current(), this.timeAt[k], this.timeAt[k + 1]);
  }

  /** Row k's entry per column into `cur`: its first, or -1 ("?") when the sample lacks it. */
  private rowEntries(k: number, colAt: readonly Int32Array[], stamp: Int32Array, cur: Int32Array): void {
    const end = this.rowStart[k + 1];
    for (let e = this.rowStart[k]; e < end; e++) {
      const c = colAt[this.entryMetric[e]][this.entryCol[e]];
      if (stamp[c] === k) continue;
      stamp[c] = k;
      cur[c] = e;
    }
    for (let c = 0; c < cur.length; c++) if (stamp[c] !== k) cur[c] = -1;
  }

  /**
   * An all-ASCII row as line() builds it, from byte `start` of `buf` (room reserved for the
   * widest row): the time padded on the right, each cell on the left after two spaces,
   * trailing white space trimmed, a newline. Returns the end.
   */
  private writeRow(buf: Uint8Array, start: number, k: number, cur: Int32Array, widths: Int32Array, tw: number, cells: Uint8Array, times: Uint8Array): number {
    let p = start;
    const t0 = this.timeAt[k];
    const t1 = this.timeAt[k + 1];
    for (let i = t0; i < t1; i++) buf[p++] = times[i];
    for (let i = t1 - t0; i < tw; i++) buf[p++] = 32;
    const entryAt = this.entryAt;
    for (let c = 0; c < cur.length; c++) {
      const e = cur[c];
      const a = e < 0 ? 0 : entryAt[e];
      const b = e < 0 ? 1 : entryAt[e + 1];
      for (let i = 2 + widths[c] - (b - a); i > 0; i--) buf[p++] = 32;
      if (e < 0) buf[p++] = 63; // '?'
      else for (let i = a; i < b; i++) buf[p++] = cells[i];
    }
    while (p > start && isAsciiSpace(buf[p - 1])) p--;
    buf[p++] = 10;
    return p;
  }

  /**
   * Row k, whose cells are those of the row written at [start - prev, start) (a sameCells
   * row): its time as writeRow writes it, then that row's cells copied. Returns the end.
   */
  private copyRow(buf: Uint8Array, start: number, k: number, prev: number, tw: number, times: Uint8Array): number {
    let p = start;
    const t0 = this.timeAt[k];
    const t1 = this.timeAt[k + 1];
    for (let i = t0; i < t1; i++) buf[p++] = times[i];
    for (let i = t1 - t0; i < tw; i++) buf[p++] = 32;
    // The row above ends in a newline after a cell (not a space: rows are trimmed, and the
    // caller copies only a row with cells), so the copy needs no trimming.
    buf.copyWithin(p, start - prev + tw, start);
    return p + prev - tw;
  }

  /** The whole table (columns are known once every sample is in). */
  finish(info: TableInfo): string {
    return new TextDecoder().decode(this.finishBytes(info));
  }

  /** finish's table as UTF-8 bytes. */
  finishBytes(info: TableInfo): Uint8Array {
    const metrics = this.metrics;
    const lines = tablePreamble(metrics, info);
    // Global column numbers: each metric's columns in turn; a metric never seen keeps one
    // empty column (instance NaN: no name, every cell "?").
    // Within a metric, columns go by ascending instance id, as pmval sorts its instances
    // (initinsts: qsort on the id); colAt[j][c] is the table column of metric j's column c.
    const colAt: Int32Array[] = [];
    const head1: string[] = [];
    const head2: string[] = [];
    metrics.forEach((m, j) => {
      const seen = this.colInst[j];
      const order = seen.map((_, c) => c).sort((a, b) => seen[a] - seen[b]);
      const at = new Int32Array(seen.length);
      order.forEach((c, k) => (at[c] = head1.length + k));
      colAt.push(at);
      const insts = seen.length > 0 ? order.map((c) => seen[c]) : [Number.NaN];
      for (const inst of insts) {
        head1.push(m.name);
        head2.push(Number.isNaN(inst) || inst === -1 ? '' : m.instName(inst));
      }
    });
    const ncols = head1.length;
    const rows = this.rows;
    const widths = head1.map((h, i) => Math.max(h.length, head2[i].length, rows > 0 ? 1 : 0, this.style.width ?? 0));
    // The widest cell of each column, measured as the cells came in.
    metrics.forEach((_, j) => {
      this.colWidth[j].forEach((cw, c) => {
        const g = colAt[j][c];
        if (cw > widths[g]) widths[g] = cw;
      });
    });
    const stamp = new Int32Array(ncols).fill(-1);
    const w = new Int32Array(widths);
    const tw = Math.max(4, this.timeWidth);
    const line = (first: string, cells: readonly string[]): string => {
      let out = first.padEnd(tw);
      for (let i = 0; i < ncols; i++) out += '  ' + cells[i].padStart(widths[i]);
      return out.trimEnd();
    };
    lines.push(line('', head1));
    if (head2.some((h) => h !== '')) lines.push(line('', head2));
    const encoder = new TextEncoder();
    const head = encoder.encode(lines.join('\n') + '\n');
    const cells = this.cellBytes.current();
    const times = this.timeBytes.current();
    let rowBytes = tw + 1;
    for (const width of widths) rowBytes += 2 + width;
    const out = new ByteWriter(head.length + rows * rowBytes);
    out.bytes(head);
    // One row's entries, reused: -1 ("?") unless the sample has the instance. Row by row in
    // small methods: each is compiled once it is hot, a few hundred rows in, where one loop
    // over the whole table waits for on-stack replacement in baseline code.
    // A sameCells row keeps `cur` (the entries of the row above) and, where the row above was
    // written here with cells past its time, copies its bytes: `prev` is that row's length
    // (0: it was not).
    const cur = new Int32Array(ncols);
    let prev = 0;
    // Room for every row at once (an ASCII row takes at most rowBytes): no call per row for it.
    let buf = out.reserve(rows * rowBytes);
    for (let k = 0; k < rows; k++) {
      const same = this.sameCells[k] === 1;
      if (!same) this.rowEntries(k, colAt, stamp, cur);
      if (this.wideRows.size > 0 && this.wideRows.has(k)) {
        const texts: string[] = [];
        for (let c = 0; c < ncols; c++) texts.push(cur[c] < 0 ? '?' : this.cellText(cur[c]));
        out.bytes(encoder.encode(line(this.timeText(k), texts) + '\n'));
        buf = out.reserve((rows - k - 1) * rowBytes);
        prev = 0;
        continue;
      }
      const start = out.length;
      out.length = same && prev > 0 ? this.copyRow(buf, start, k, prev, tw, times) : this.writeRow(buf, start, k, cur, w, tw, cells, times);
      // Copied again below only when cells follow the time (its trimmed row is longer).
      prev = out.length - start > tw + 1 ? out.length - start : 0;
    }
    return out.current();
  }
}

/** Whether two values print the same: equal, and zeros of the same sign ("-0.0" is not "0.0"). */
function sameValue(a: SampleValue | undefined, b: SampleValue): boolean {
  return a === b && (a !== 0 || 1 / a === 1 / (b as number));
}

/** Whether two lists hold the same arrays (by identity). */
function sameArrays(a: readonly Int32Array[], b: readonly Int32Array[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether a run's row at `at` has the values of the row before it (zeros of the same sign;
 *  a NaN never repeats, as sameValue). */
function sameRowValues(values: Float64Array, missing: Uint8Array, at: number, width: number): boolean {
  for (let c = 0; c < width; c++) {
    const i = at + c;
    if (missing[i] !== missing[i - width]) return false;
    if (missing[i] === 1) continue;
    const a = values[i];
    const b = values[i - width];
    if (a !== b || (a === 0 && 1 / a !== 1 / b)) return false;
  }
  return true;
}

/** Bytes [from, to) of `bytes`, all ASCII, as a string. */
function asciiText(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
