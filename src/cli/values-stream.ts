// The table of `pmdash values -h` (live), written row by row as each sample is taken, as
// pmval prints: when pmcd goes away, the samples already taken are on the screen. The
// archive table (values-format.ts TableBuilder) sizes its columns over every row; here the
// columns are sized from their headings and the first row they appear in, and an instance
// that appears later starts a new heading (pmval too prints a new heading when the instances
// change). Cells wider than their column push the rest of the row right, never get cut.
import type { Timestamp } from '../pcp-core/types';
import { PM_SEM_COUNTER, PM_TYPE_DOUBLE, PM_TYPE_FLOAT } from '../pcp-core/types';
import { cell, tablePreamble, type CellStyle, type TableInfo } from './values-format';
import type { Sample, SampledMetric } from './values-sampler';

interface Column {
  readonly metric: number;
  readonly inst: number;
  width: number;
}

export class TableStream {
  private columns: Column[] = [];
  private readonly known = new Set<string>();
  private timeWidth = 0;
  private readonly floating: boolean[];
  /** The semantics printreal is given: a rate's is a counter's. */
  private readonly sem: number[];
  private started = false;

  constructor(
    private readonly metrics: readonly SampledMetric[],
    private readonly info: TableInfo,
    private readonly formatTime: (t: Timestamp) => string,
    private readonly style: CellStyle & { readonly width?: number } = {},
  ) {
    this.floating = metrics.map((m) => m.rate || m.desc.type === PM_TYPE_FLOAT || m.desc.type === PM_TYPE_DOUBLE);
    this.sem = metrics.map((m) => (m.rate ? PM_SEM_COUNTER : m.desc.sem));
  }

  /** The text for one sample: its row, after the preamble and a heading when needed. */
  add(s: Sample): string {
    const time = this.formatTime(s.time);
    const cells = new Map<string, string>();
    let grew = false;
    for (let j = 0; j < this.metrics.length; j++) {
      for (const [inst, v] of s.values[j] ?? []) {
        const key = `${j}:${inst}`;
        if (cells.has(key)) continue; // an instance named twice: its first value, as the archive table
        const text = cell(v, this.floating[j], this.sem[j], this.style);
        cells.set(key, text);
        if (!this.known.has(key)) {
          this.known.add(key);
          this.columns.push({ metric: j, inst, width: Math.max(this.style.width ?? 1, text.length, this.metrics[j].name.length, this.instHeading(j, inst).length) });
          grew = true;
        }
      }
    }
    let out = '';
    if (!this.started) {
      this.started = true;
      this.timeWidth = Math.max(4, time.length);
      out += tablePreamble(this.metrics, this.info).join('\n') + '\n';
      // A metric with no value yet keeps one empty column, as in the archive table.
      this.metrics.forEach((m, j) => {
        if (!this.columns.some((c) => c.metric === j)) this.columns.push({ metric: j, inst: Number.NaN, width: Math.max(this.style.width ?? 0, m.name.length) });
      });
      grew = true;
    }
    if (grew) {
      // A metric's empty column gives way to its first real one (a rate's first sample of a
      // followed archive has no value): one column per instance, as pmval heads them.
      const placed = (j: number): boolean => this.columns.some((c) => c.metric === j && !Number.isNaN(c.inst));
      this.columns = this.columns.filter((c) => !Number.isNaN(c.inst) || !placed(c.metric));
      // Each metric's instances by ascending id, as pmval sorts them (initinsts).
      this.columns.sort((a, b) => a.metric - b.metric || a.inst - b.inst);
      const head1 = this.columns.map((c) => this.metrics[c.metric].name);
      const head2 = this.columns.map((c) => this.instHeading(c.metric, c.inst));
      out += this.line('', head1) + '\n';
      if (head2.some((h) => h !== '')) out += this.line('', head2) + '\n';
    }
    return out + this.line(time, this.columns.map((c) => cells.get(`${c.metric}:${c.inst}`) ?? '?')) + '\n';
  }

  private instHeading(metric: number, inst: number): string {
    return Number.isNaN(inst) || inst === -1 ? '' : this.metrics[metric].instName(inst);
  }

  private line(first: string, cells: readonly string[]): string {
    let out = first.padEnd(this.timeWidth);
    for (let i = 0; i < cells.length; i++) out += '  ' + cells[i].padStart(this.columns[i].width);
    return out.trimEnd();
  }
}
