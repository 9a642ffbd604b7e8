// `pmdash metrics -a ARCHIVE [-d] [-T] [-l] [PREFIX...] [--json]`: the metrics of an archive,
// like `pminfo -a ARCHIVE`: names in pmTraversePMNS order below each PREFIX (the whole PMNS
// by default); -d adds descriptors in exactly pminfo's text format, -T help text, -l merged
// label sets (context, domain, indom, cluster, item; then per instance) as pminfo finds them
// (pminfo-labels.ts: at the first record holding each metric, with pminfo's caches). An
// unknown PREFIX is reported on stderr as pminfo does and makes the status 1.
import { optFlag, optList, parseArgs, type OptionSpec } from './args';
import type { Command } from './command';
import { archiveOption, archiveSpec, BufferedOut, openForCommand } from './archive-cli';
import { derivedHelpText, derivedOverArchiveSet } from './derived-cli';
import { isDerivedPmid } from '../pcp-core/derived/registry';
import type { DerivedContext } from '../pcp-core/derived/derived-context';
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import { pminfoLabels, type NameLabels } from './pminfo-labels';
import { PminfoValues } from './pminfo-values';
import { ArchiveContext } from '../pcp-core/context/archive-context';
import { PM_ERR_PMID_LOG, PmError, pmErrStr } from '../pcp-core/errors';
import { formatUnits } from '../pcp-core/units';
import {
  PM_INDOM_NULL,
  PM_TYPE_32,
  PM_TYPE_64,
  PM_TYPE_AGGREGATE,
  PM_TYPE_AGGREGATE_STATIC,
  PM_TYPE_DOUBLE,
  PM_TYPE_EVENT,
  PM_TYPE_FLOAT,
  PM_TYPE_HIGHRES_EVENT,
  PM_TYPE_NOSUPPORT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
  formatInDom,
  formatPmId,
  formatSem,
  formatType,
  type Desc,
  type PmId,
} from '../pcp-core/types';

const options: readonly OptionSpec[] = [
  archiveOption,
  { short: 'd', long: 'desc', key: 'desc', help: 'show each metric\'s descriptor (pminfo -d)' },
  { short: 'T', long: 'help-text', key: 'help', help: 'show each metric\'s help text (pminfo -T)' },
  { short: 'f', long: 'fetch', key: 'values', help: 'show each metric\'s values at the first record holding it (pminfo -f)' },
  { short: 't', long: 'oneline', key: 'oneline', help: 'show each metric\'s one-line help after its name (pminfo -t)' },
  { short: 'l', long: 'labels', key: 'labels', help: 'show each metric\'s labels (pminfo -l)' },
  { short: 'c', long: 'derived', value: true, repeat: true, arg: 'CONFIG', help: 'load derived metric definitions from CONFIG (pminfo -c)' },
  { long: 'json', help: 'print one JSON object' },
];

/** pminfo's names for data types (mytypestr). */
const TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [PM_TYPE_32, '32-bit int'],
  [PM_TYPE_U32, '32-bit unsigned int'],
  [PM_TYPE_64, '64-bit int'],
  [PM_TYPE_U64, '64-bit unsigned int'],
  [PM_TYPE_FLOAT, 'float'],
  [PM_TYPE_DOUBLE, 'double'],
  [PM_TYPE_STRING, 'string'],
  [PM_TYPE_AGGREGATE, 'aggregate'],
  [PM_TYPE_AGGREGATE_STATIC, 'static aggregate'],
  [PM_TYPE_EVENT, 'event record array'],
  [PM_TYPE_HIGHRES_EVENT, 'highres event record array'],
  [PM_TYPE_NOSUPPORT, 'Not Supported'],
]);

/** pminfo -d's two lines for a descriptor (mydesc). */
export function formatDescLines(d: Desc): string {
  const type = TYPE_NAMES.get(d.type) ?? '???';
  const sem = formatSem(d.sem);
  const units = formatUnits(d.units);
  return (
    `    Data Type: ${type}${type === '???' ? ` (${d.type})` : ''}  InDom: ${formatInDom(d.indom)} 0x${(d.indom >>> 0).toString(16)}\n` +
    `    Semantics: ${sem}${sem === '???' ? ` (${d.sem})` : ''}  Units: ${units === '' ? 'none' : units}\n`
  );
}

/** Help text as pminfo prints it (trailing newlines dropped; fallback to one-line). */
function helpText(set: ArchiveSet, id: PmId): string {
  try {
    const text = set.metadata.text({ pmid: id }, 'help').replace(/\n+$/, '');
    return text === '' ? 'Help: <empty entry>\n' : `Help:\n${text}\n`;
  } catch (e) {
    if (e instanceof PmError) return `Full Help: Error: ${e.message}\n`;
    throw e;
  }
}

/** pminfo -t's text after the name: " [one-line help]", or the lookup's error. */
async function onelineText(set: ArchiveSet, derived: DerivedContext | undefined, pmid: PmId): Promise<string> {
  try {
    const text = derived && isDerivedPmid(pmid) ? await derived.lookupText({ pmid }, 'oneline') : set.metadata.text({ pmid }, 'oneline');
    return ` [${text}]`;
  } catch (e) {
    if (e instanceof PmError) return ` One-line Help: Error: ${e.message}`;
    throw e;
  }
}

export const metricsCommand: Command = {
  name: 'metrics',
  summary: 'list the metrics of an archive (like pminfo -a, with -d, -f, -t, -T, -l)',
  usage: '-a ARCHIVE [-c CONFIG] [-d] [-f] [-t] [-T] [-l] [PREFIX...] [--json]',
  options,
  async run(argv, io) {
    const args = parseArgs(argv, options);
    const spec = archiveSpec(args);
    const showDesc = optFlag(args, 'desc');
    const showHelp = optFlag(args, 'help');
    const showOneline = optFlag(args, 'oneline');
    const showValues = optFlag(args, 'values');
    const showLabels = optFlag(args, 'labels');
    const json = optFlag(args, 'json');
    const set = await openForCommand('metrics', spec, io);
    if (!set) return 1;
    try {
      const meta = set.metadata;
      // Derived metrics (libpcp's default configuration and -c) join the names (derived-cli.ts);
      // the rest reads the metadata.
      const derived = await derivedOverArchiveSet(set, optList(args, 'derived'), io);
      const prefixes = args.positionals.length > 0 ? args.positionals : [''];
      // Every prefix is traversed before any metric is bound (a failed binding hides a name).
      const lists: Array<string[] | PmError> = [];
      for (const prefix of prefixes) {
        try {
          lists.push(derived ? await derived.traverse(prefix) : meta.pmns.traverse(prefix));
        } catch (e) {
          if (!(e instanceof PmError)) throw e;
          lists.push(e);
        }
      }
      // -l: pminfo's label output per name, in its order (pminfo-labels.ts); taken in turn below.
      const listed = derived ? lists.flatMap((l) => (l instanceof PmError ? [] : l)) : undefined;
      const labelPlan = showLabels ? await pminfoLabels(set, prefixes, derived, listed) : [];
      let planAt = 0;
      const labelsOf = (name: string): NameLabels | undefined => {
        while (planAt < labelPlan.length) {
          const p = labelPlan[planAt++];
          if (!p.hidden && p.name === name) return p.out;
        }
        return undefined;
      };
      // -f: pminfo fetches each metric alone from the archive's start (pminfo-values.ts).
      const values = showValues && !json ? new PminfoValues(set, derived ?? (await ArchiveContext.fromSet(set))) : undefined;
      const out = new BufferedOut(io);
      let status = 0;
      const entries: unknown[] = [];
      for (const [k, prefix] of prefixes.entries()) {
        const names = lists[k];
        if (names instanceof PmError) {
          io.stderr(`Error: ${prefix === '' ? '' : `${prefix}: `}${names.message}\n`);
          status = 1;
          continue;
        }
        for (const name of names) {
          const id = derived ? (await derived.lookupNames([name]))[0] : meta.pmns.lookup(name);
          if (id < 0) {
            await out.write(`${name}: pmLookupName: ${pmErrStr(id)}\n`);
            continue;
          }
          const pmid = id as PmId;
          const l = showLabels ? labelsOf(name) : undefined;
          if (!json && l && 'fetchError' in l) {
            // pminfo's fetch of the metric failed: it reports that instead of anything else.
            await out.write(`${name}: pmFetch: ${pmErrStr(l.fetchError)}\n`);
            continue;
          }
          let desc = meta.desc(pmid);
          // A derived metric is bound (and its semantic errors reported) only when its
          // descriptor is needed, as pminfo does (-T alone reads only the help text).
          if (derived && isDerivedPmid(pmid) && (showDesc || showLabels || showValues || json)) {
            const [d] = await derived.lookupDescs([pmid]);
            if (typeof d === 'number') {
              if (json) entries.push({ name, pmid: formatPmId(pmid), error: pmErrStr(d) });
              else await out.write(`${name}: pmLookupDesc: ${pmErrStr(d)}\n`);
              continue;
            }
            desc = d;
          }
          // pminfo reports a derived metric it cannot bind by its descriptor lookup (above), not its fetch.
          const fetched = values ? await values.fetch(pmid) : undefined;
          if (fetched && 'fetchError' in fetched) {
            await out.write(`${name}: pmFetch: ${pmErrStr(fetched.fetchError)}\n`);
            continue;
          }
          if (json) {
            const entry: Record<string, unknown> = { name, pmid: formatPmId(pmid) };
            if (desc) {
              entry.type = formatType(desc.type);
              entry.indom = desc.indom === PM_INDOM_NULL ? null : formatInDom(desc.indom);
              entry.sem = formatSem(desc.sem);
              entry.units = formatUnits(desc.units);
            }
            if (showHelp || showOneline) {
              for (const kind of ['oneline', 'help'] as const) {
                try {
                  entry[kind] = meta.text({ pmid }, kind);
                } catch (e) {
                  if (!(e instanceof PmError)) throw e;
                }
              }
            }
            if (showLabels && desc) {
              if (l && 'fetchError' in l) entry.labelsError = pmErrStr(l.fetchError);
              else {
                entry.labels = l?.metric ?? null;
                entry.instanceLabels = l?.instances ?? [];
              }
            }
            entries.push(entry);
            continue;
          }
          if ((showDesc || showLabels || showValues) && !desc) {
            await out.write(`${name}: pmLookupDesc: ${pmErrStr(PM_ERR_PMID_LOG)}\n`);
            continue;
          }
          const oneline = showOneline ? await onelineText(set, derived, pmid) : '';
          let text = showDesc || showHelp || showLabels || showValues ? `\n${name}${oneline}\n` : `${name}${oneline}\n`;
          if (showDesc && desc) text += formatDescLines(desc);
          const shown = l && 'metric' in l ? l : undefined;
          if (shown?.metric) text += `    labels ${shown.metric}\n`;
          if (showHelp) text += derived && isDerivedPmid(pmid) ? await derivedHelpText(derived, pmid) : helpText(set, pmid);
          if (fetched && desc) text += values?.format(desc, fetched.set, fetched.timestamp) ?? '';
          for (const i of shown?.instances ?? []) text += `    inst [${i.inst} or "${i.name}"] labels ${i.labels}\n`;
          await out.write(text);
        }
      }
      if (json) await out.write(JSON.stringify({ archive: spec, metrics: entries }, null, 2) + '\n');
      await out.flush();
      return status;
    } finally {
      await set.close();
    }
  },
};
