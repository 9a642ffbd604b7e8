// `pmdash dump -a ARCHIVE [--json]`: every record of an archive (set) in the order libpcp's
// pmFetchArchive returns them, like `pmdumplog -a`'s record listing. Text output names
// metrics and instances (instance names as of each record's time) with UTC times; --json
// writes one object per record (format in dump-json.ts). A damaged archive: every record
// before the damage is delivered, then one line names the file, offset and reason, and the
// exit status is 1.
import { optFlag, parseArgs, type OptionSpec } from './args';
import type { Command } from './command';
import { archiveOption, archiveSpec, BufferedOut, describeError, openForCommand } from './archive-cli';
import { DumpJsonFormatter } from './dump-json';
import { ArchiveFetcher } from '../pcp-core/archive/fetch-archive';
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import type { ArchiveRecord } from '../pcp-core/archive/volume-record';
import { formatIsoUtc } from '../pcp-core/archive/timestamps';
import { PM_ERR_EOL, PmError, pmErrStr } from '../pcp-core/errors';
import {
  PM_INDOM_NULL,
  PM_TYPE_AGGREGATE,
  PM_TYPE_AGGREGATE_STATIC,
  formatPmId,
  type AtomValue,
  type InstanceList,
  type PmId,
} from '../pcp-core/types';

const options: readonly OptionSpec[] = [archiveOption, { long: 'json', help: 'one JSON object per record (see dump-json.ts)' }];

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** pmdumplog-style text: a header line per record, one line per value. */
class TextFormatter {
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

  format(rec: ArchiveRecord): string {
    const time = formatIsoUtc(rec.timestamp);
    if (rec.mark) return `${time} <mark>\n`;
    let out = `${time} ${rec.sets.length} metric${rec.sets.length === 1 ? '' : 's'}\n`;
    for (const vs of rec.sets) {
      const prefix = this.prefix(vs.pmid);
      if (vs.numval < 0) {
        out += `${prefix}Error: ${pmErrStr(vs.numval)}\n`;
        continue;
      }
      if (vs.numval === 0) {
        out += `${prefix}No values returned!\n`;
        continue;
      }
      const desc = this.set.metadata.desc(vs.pmid);
      const type = desc?.type ?? -99;
      const singular = !desc || desc.indom === PM_INDOM_NULL;
      const list = singular ? undefined : this.set.metadata.indomAt(desc.indom, rec.timestamp);
      for (let j = 0; j < vs.numval; j++) {
        const inst = vs.inst[j];
        const where = singular && inst === -1 ? '' : this.instPrefix(list, inst);
        out += `${prefix}${where}value ${this.value(type, vs.values[j])}\n`;
      }
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

export const dumpCommand: Command = {
  name: 'dump',
  summary: 'print every record of an archive in order (like pmdumplog -a)',
  usage: '-a ARCHIVE [--json]',
  options,
  async run(argv, io) {
    const args = parseArgs(argv, options);
    const spec = archiveSpec(args);
    const set = await openForCommand('dump', spec, io);
    if (!set) return 1;
    try {
      const out = new BufferedOut(io);
      const fetcher = new ArchiveFetcher(set);
      let failure: PmError | null;
      if (optFlag(args, 'json')) {
        // The fast path: lines straight from each record's bytes.
        const format = new DumpJsonFormatter((p) => set.metadata.desc(p)?.type);
        failure = await drain(() => fetcher.nextRaw(), (rec) => out.write(format.formatRaw(rec)));
      } else {
        const l = set.label;
        await out.write(
          `Archive "${spec}": format version ${l.version}, host ${l.hostname}, timezone ${l.timezone}${l.zoneinfo ? ` (${l.zoneinfo})` : ''}\n` +
            `Start ${formatIsoUtc(l.start)}, ${set.archives.length} archive${set.archives.length === 1 ? '' : 's'}\n\n`,
        );
        const format = new TextFormatter(set);
        failure = await drain(() => fetcher.next(), (rec) => out.write(format.format(rec)));
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
