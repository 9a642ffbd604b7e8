// The values of `pmdumplog -Z UTC ARCHIVE METRIC…` (no -a) as numbers, per record: the
// record's time of day in microseconds (UTC) → "metric" or "metric[instance name]" → value.
// For tests comparing what pmdash recorded or showed against PCP's own reading of an archive.

export type DumplogRecords = Map<number, Map<string, number>>;

/** Microseconds since midnight UTC of an epoch-ms time (the key of a DumplogRecords row). */
export function dayMicros(ms: number): number {
  const us = Math.round(ms * 1000);
  const day = 86_400_000_000;
  return ((us % day) + day) % day;
}

export function parseDumplogValues(text: string): DumplogRecords {
  const out: DumplogRecords = new Map();
  let row: Map<string, number> | undefined;
  let metric = '';
  for (const line of text.split('\n')) {
    const head = /^(\d\d):(\d\d):(\d\d)\.(\d+) +\d+ metrics?$/.exec(line);
    if (head) {
      const [h, m, s, frac] = [Number(head[1]), Number(head[2]), Number(head[3]), head[4] ?? '0'];
      const us = ((h * 60 + m) * 60 + s) * 1_000_000 + Math.round(Number(`0.${frac}`) * 1_000_000);
      row = new Map();
      out.set(us, row);
      continue;
    }
    if (!row) continue;
    const single = /^ {4}[\d.]+ \(([^)]+)\): value (\S+)$/.exec(line);
    if (single) {
      row.set(single[1] ?? '', Number(single[2]));
      continue;
    }
    const named = /^ {4}[\d.]+ \(([^)]+)\):$/.exec(line);
    if (named) {
      metric = named[1] ?? '';
      continue;
    }
    const inst = /^ {8}inst \[\d+ or "(.*)"\] value (\S+)$/.exec(line);
    if (inst) row.set(`${metric}[${inst[1] ?? ''}]`, Number(inst[2]));
  }
  return out;
}
