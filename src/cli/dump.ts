// `pmdash dump -a ARCHIVE [--json]`: every record of an archive (set) in the order libpcp's
// pmFetchArchive returns them, like `pmdumplog -a`'s record listing. Text output names
// metrics and instances (instance names as of each record's time) with UTC times; --json
// writes one object per record (format in dump-json.ts). A damaged archive: every record
// before the damage is delivered, then one line names the file, offset and reason, and the
// exit status is 1.
import { optFlag, optString, parseArgs, UsageError, type OptionSpec } from './args';
import { pickSets } from './dump-select';
import { localZone, parseValuesWindow } from './values-time';
import { ArchiveContext } from '../pcp-core/context/archive-context';
import { formatCtimeFraction, type Zone } from '../pcp-core/time';
import { compareTimestamps } from '../pcp-core/time/timestamp';
import type { Command, CommandIo } from './command';
import { archiveOption, archiveRecords, archiveSpec, BufferedOut, describeError, openForCommand } from './archive-cli';
import { DumpJsonFormatter } from './dump-json';
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import { blockOffset, type LogRecord } from '../pcp-core/replay/log-record';
import { decodeAtom } from '../pcp-core/archive/value-decode';
import { decodeCStringAt } from '../pcp-core/io/cursor';
import { formatIsoUtc } from '../pcp-core/time/format';
import { PM_ERR_EOL, PmError, pmErrStr } from '../pcp-core/errors';
import {
  PM_INDOM_NULL,
  PM_TYPE_AGGREGATE,
  PM_TYPE_AGGREGATE_STATIC,
  PM_TYPE_DOUBLE,
  PM_TYPE_FLOAT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
  PM_VAL_INSITU,
  formatPmId,
  type AtomValue,
  type InstanceList,
  type PmId,
  type Timestamp,
} from '../pcp-core/types';

const options: readonly OptionSpec[] = [
  archiveOption,
  { short: 'S', long: 'start', value: true, arg: 'TIME', help: 'records from this time (pmdumplog -S)' },
  { short: 'T', long: 'finish', value: true, arg: 'TIME', help: 'records up to this time (pmdumplog -T)' },
  { short: 'L', long: 'label', key: 'label', help: 'print the archive label only, as pmdumplog -L' },
  { long: 'json', help: 'one JSON object per record (see dump-json.ts)' },
];

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** pmdumplog-style text: a header line per record, one line per value. */
export class TextFormatter {
  /** "    pmid (name): " per pmid. */
  private readonly prefixes = new Map<PmId, string>();
  /** Per instance list (an observation of an indom): "inst [N or "name"] " per instance. */
  private readonly instPrefixes = new WeakMap<InstanceList, Map<number, string>>();
  private readonly unlisted = new Map<number, string>();

  constructor(private readonly set: ArchiveSet) {}

  private prefix(pmid: PmId): string {
    let n = this.prefixes.get(pmid);
    if (n === undefined) {
      const all = this.set.metadata.pmns.nameAll(pmid);
      n = `    ${formatPmId(pmid)} (${all.length > 0 ? all[0] : '<noname>'}): `;
      this.prefixes.set(pmid, n);
    }
    return n;
  }

  private instPrefix(list: InstanceList | undefined, inst: number): string {
    let m = list ? this.instPrefixes.get(list) : this.unlisted;
    if (!m) {
      m = new Map(Array.from(list?.instances ?? [], (id, i) => [id, `inst [${id} or ${JSON.stringify(list?.names[i])}] `]));
      if (list) this.instPrefixes.set(list, m);
    }
    let p = m.get(inst);
    if (p === undefined) m.set(inst, (p = `inst [${inst} or ???] `));
    return p;
  }

  private value(type: number, v: AtomValue): string {
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (typeof v === 'string') return JSON.stringify(v);
    if (v instanceof Uint8Array) return type === PM_TYPE_AGGREGATE || type === PM_TYPE_AGGREGATE_STATIC ? `[${hex(v)}]` : `[raw ${hex(v)}]`;
    return `[${v.records.length} event record${v.records.length === 1 ? '' : 's'}]`;
  }

  /** One record (or its `picked` sets), straight from its checked bytes (no decoded values kept). */
  format(rec: LogRecord, picked?: readonly number[]): string {
    const time = formatIsoUtc(rec.timestamp);
    if (rec.numpmid === 0) return `${time} <mark>\n`;
    const { buf: bytes, view } = rec;
    // `picked`: the offsets of the chosen sets (dump-select.ts), else every set in turn.
    const n = picked ? picked.length : rec.numpmid;
    let out = `${time} ${n} metric${n === 1 ? '' : 's'}\n`;
    let p = rec.vsetOffsets[0];
    for (let i = 0; i < n; i++) {
      if (picked) p = picked[i];
      const pmid = view.getUint32(p) as PmId;
      const numval = view.getInt32(p + 4);
      const prefix = this.prefix(pmid);
      if (numval <= 0) {
        out += numval < 0 ? `${prefix}Error: ${pmErrStr(numval)}\n` : `${prefix}No values returned!\n`;
        p += 8;
        continue;
      }
      const valfmt = view.getInt32(p + 8);
      const desc = this.set.metadata.desc(pmid);
      const type = desc?.type ?? -99;
      const singular = !desc || desc.indom === PM_INDOM_NULL;
      const list = singular ? undefined : this.set.metadata.indomAt(desc.indom, rec.timestamp);
      // As pmdumplog: one value on the metric's line, several on lines of their own.
      const lead = numval === 1 ? prefix : '        ';
      if (numval > 1) out += `${prefix.slice(0, -1)}\n`;
      let q = p + 12;
      for (let j = 0; j < numval; j++, q += 8) {
        const inst = view.getInt32(q);
        const where = singular && inst === -1 ? '' : this.instPrefix(list, inst);
        let v: string;
        if (valfmt === PM_VAL_INSITU) {
          v = type === PM_TYPE_U32 ? String(view.getUint32(q + 4)) : type === PM_TYPE_FLOAT ? String(view.getFloat32(q + 4)) : String(view.getInt32(q + 4));
        } else {
          const b = blockOffset(view.getInt32(q + 4));
          const len = (view.getUint32(b) & 0xffffff) - 4;
          const at = b + 4;
          if (type === PM_TYPE_U64 && len >= 8) {
            const hi = view.getUint32(at);
            v = hi < 0x200000 ? String(hi * 4294967296 + view.getUint32(at + 4)) : view.getBigUint64(at).toString();
          } else if (type === PM_TYPE_DOUBLE && len >= 8) {
            v = String(view.getFloat64(at));
          } else if (type === PM_TYPE_STRING) {
            v = JSON.stringify(decodeCStringAt(bytes, at, at + len));
          } else {
            v = this.value(type, decodeAtom(type, view, bytes, at, len) ?? bytes.slice(at, at + len));
          }
        }
        out += `${lead}${where}value ${v}\n`;
      }
      p = q;
    }
    return out;
  }
}

/** Reads until the end; resolves with null at PM_ERR_EOL, else the error that stopped it. */
async function drain<R>(next: () => Promise<R>, each: (rec: R) => Promise<void>): Promise<PmError | null> {
  for (;;) {
    let rec: R;
    try {
      rec = await next();
    } catch (e) {
      if (e instanceof PmError) return e.code === PM_ERR_EOL ? null : e;
      throw e;
    }
    await each(rec);
  }
}

/** pmdumplog -L's label: host, start and end (local time, µs for V2, ns for V3), zone, pid. */
async function labelText(set: ArchiveSet, zone: Zone): Promise<string> {
  const l = set.label;
  const digits = l.version === 3 ? 9 : 6;
  const ctx = await ArchiveContext.fromSet(set);
  let end: string;
  try {
    end = formatCtimeFraction(zone, await ctx.archiveEnd(), digits);
  } catch (e) {
    if (!(e instanceof PmError)) throw e;
    end = 'UNKNOWN';
  }
  let out = `Log Label (Log Format Version ${l.version})\nPerformance metrics from host ${l.hostname}\n`;
  out += `    commencing ${formatCtimeFraction(zone, l.start, digits)}\n    ending     ${end}\n`;
  if (l.timezone !== '') out += `Archive timezone: ${l.timezone}\n`;
  if (l.zoneinfo !== '') out += `Archive zoneinfo: ${l.zoneinfo}\n`;
  if (l.features !== 0) out += `Archive features: 0x${(l.features >>> 0).toString(16)}\n`;
  return `${out}PID for pmlogger: ${l.pid}\n`;
}

/** The named metrics' pmids, subtrees expanded (pmdumplog's pmTraversePMNS); unknown names reported. */
function wantedPmids(set: ArchiveSet, names: readonly string[], io: CommandIo): PmId[] {
  const out: PmId[] = [];
  for (const name of names) {
    let leaves: string[];
    try {
      leaves = set.metadata.pmns.traverse(name);
    } catch (e) {
      if (!(e instanceof PmError)) throw e;
      io.stderr(`pmdash dump: pmLookupName(${name}): ${e.message}\n`);
      continue;
    }
    for (const leaf of leaves) {
      const id = set.metadata.pmns.lookup(leaf);
      if (id >= 0 && !out.includes(id as PmId)) out.push(id as PmId);
    }
  }
  return out;
}

export const dumpCommand: Command = {
  name: 'dump',
  summary: 'print the records of an archive in order (like pmdumplog -a; metrics, -S/-T, -L as pmdumplog)',
  usage: '-a ARCHIVE [-S START] [-T FINISH] [-L] [--json] [METRIC...]',
  options,
  async run(argv, io) {
    const args = parseArgs(argv, options);
    const spec = archiveSpec(args);
    const json = optFlag(args, 'json');
    if (json && optFlag(args, 'label')) throw new UsageError('-L and --json are mutually exclusive');
    const set = await openForCommand('dump', spec, io);
    if (!set) return 1;
    try {
      let zoneMemo: Zone | undefined;
      const zone = (): Zone => (zoneMemo ??= localZone());
      if (optFlag(args, 'label')) {
        io.stdout(await labelText(set, zone()));
        return 0;
      }
      // Metric names: only their sets, in the order named; no names, every record whole.
      const wanted = args.positionals.length > 0 ? wantedPmids(set, args.positionals, io) : undefined;
      if (wanted && wanted.length === 0) {
        io.stderr('pmdash dump: No metric names can be translated, dump abandoned\n');
        return 1;
      }
      // -S/-T: pmParseTimeWindow over the archive; records before the start are passed over,
      // the dump stops at the first after the end.
      const startOpt = optString(args, 'start');
      const finishOpt = optString(args, 'finish');
      let from: Timestamp | undefined;
      let until: Timestamp | undefined;
      if (startOpt !== undefined || finishOpt !== undefined) {
        const ctx = await ArchiveContext.fromSet(set);
        const w = parseValuesWindow({ start: startOpt, finish: finishOpt }, set.label.start, await ctx.archiveEnd(), zone());
        from = w.origin;
        until = w.finish;
      }
      const keep = (rec: LogRecord): readonly number[] | undefined | null => {
        if (from && compareTimestamps(rec.timestamp, from) < 0) return null;
        if (!wanted) return undefined;
        const picked = pickSets(rec, wanted);
        return picked.length > 0 ? picked : null;
      };
      const out = new BufferedOut(io);
      const records = await archiveRecords(set);
      const next = async (): Promise<LogRecord> => {
        const rec = await records.fetchArchiveRecord();
        if (until && compareTimestamps(rec.timestamp, until) > 0) throw new PmError(PM_ERR_EOL, pmErrStr(PM_ERR_EOL));
        return rec;
      };
      let failure: PmError | null;
      if (json) {
        // The fast path: lines straight from each record's bytes.
        const format = new DumpJsonFormatter((p) => set.metadata.desc(p)?.type);
        failure = await drain(next, async (rec) => {
          const picked = keep(rec);
          if (picked !== null) await out.write(format.formatRaw(rec, picked));
        });
      } else {
        const l = set.label;
        await out.write(
          `Archive "${spec}": format version ${l.version}, host ${l.hostname}, timezone ${l.timezone}${l.zoneinfo ? ` (${l.zoneinfo})` : ''}\n` +
            `Start ${formatIsoUtc(l.start)}, ${set.archives.length} archive${set.archives.length === 1 ? '' : 's'}\n\n`,
        );
        const format = new TextFormatter(set);
        failure = await drain(next, async (rec) => {
          const picked = keep(rec);
          if (picked !== null) await out.write(format.format(rec, picked));
        });
      }
      await out.flush();
      if (failure) {
        io.stderr(`pmdash dump: ${describeError(failure)}\n`);
        return 1;
      }
      return 0;
    } finally {
      await set.close();
    }
  },
};
