// `pmdash values`: metric values over time from archives, pmval/pmrep style. Samples are
// fetched in INTERP mode at origin + k·Δ (origin: -S, default the archive start), all
// metrics in one fetch per sample; counters (unless -r) are converted to rates exactly as
// pmval does (values-sampler.ts). Sample counts follow pmval: -s N fetches, else until -T,
// else until the end of the archive. Output: a table, or --json lines (values-format.ts).
//
// Sources: archives (-a, or -U for records as stored) or a live pmcd (-h: PCP host specs,
// or ws://BRIDGE/pmcd?..., opened by openLiveContext; neither -a nor -h: "local:"),
// sampled with a fetch every -t. Extension point for the other
// layer (kept here, in one place):
//   - derived metrics: `-c CONFIG` files applied in applyDerivedConfig().
// The rest of the command works on any Context.
import { DirFileSet } from '../node/dir-file-set';
import type { FileSet } from '../pcp-core/io/file-set';
import { openArchiveContext, type ArchiveContext } from '../pcp-core/context/archive-context';
import type { Context } from '../pcp-core/context/context';
import { PM_ERR_INDOM_LOG, PM_ERR_INST_LOG, PmError, isPmError, pmErrStr } from '../pcp-core/errors';
import type { IgnoreMarks } from '../pcp-core/replay/interp-bounds';
import { timestampToReal } from '../pcp-core/time/timestamp';
import type { InDom, PmId, Timestamp } from '../pcp-core/types';
import { PM_INDOM_NULL } from '../pcp-core/types';
import { optCount, optFlag, optList, optString, parseArgs, UsageError, type OptionSpec, type ParsedArgs } from './args';
import { RecordContext } from './values-records';
import { CsvWriter } from './values-csv';
import type { Command, CommandIo } from './command';
import { applyDerivedConfig as applyDerivedConfigs } from './derived-cli';
import { TableBuilder, jsonHeader, jsonSampleFormatter, type TableInfo } from './values-format';
import { TableStream } from './values-stream';
import { isRateConverted, sampleBatches, type SampledMetric, type SamplingPlan } from './values-sampler';
import { archiveZone, localZone, parseIntervalNs, parseValuesWindow, zoneFormatter, zoneTimeWriter } from './values-time';
import { Zone } from '../pcp-core/time';
import { tuneForReplay } from './v8-tuning';

export const valuesOptions: OptionSpec[] = [
  { short: 'a', long: 'archive', value: true, repeat: true, arg: 'ARCHIVE', help: 'archive (name, file, directory or comma list); repeat to join several' },
  { short: 'h', long: 'host', value: true, arg: 'HOST', help: 'live pmcd (default local:): HOST[:PORT], HOST[:PORT]@PROXY[:PORT] (pmproxy relay), pcp://HOST[:PORT], local:[SOCKET] (Unix socket, else localhost), unix:[SOCKET], or ws[s]://SERVER/pmcd[?target=HOST:PORT] (pmdash bridge); $PMCD_PORT, $PMPROXY_HOST, $PMPROXY_PORT, $PMCD_CONNECT_TIMEOUT, $PMCD_REQUEST_TIMEOUT as libpcp' },
  { short: 't', long: 'interval', value: true, arg: 'INTERVAL', help: 'sampling interval, e.g. 10, 2.5sec, 250msec (default 1 sec)' },
  { short: 'S', long: 'start', value: true, arg: 'TIME', help: 'first sample (default the archive start): +offset, -offset from the end, @date' },
  { short: 'T', long: 'finish', value: true, arg: 'TIME', help: 'last sample time (default: the end of the archive)' },
  { short: 's', long: 'samples', value: true, arg: 'N', help: 'number of samples (default: until -T or the end)' },
  { short: 'r', long: 'raw', help: 'report counters as raw values, not rates' },
  { short: 'i', long: 'instances', value: true, arg: 'LIST', help: 'only these instances (comma-separated names)' },
  { short: 'z', long: 'hostzone', help: "print times in the archive's time zone" },
  { short: 'Z', long: 'timezone', value: true, arg: 'TZ', help: 'print times in time zone TZ' },
  { short: 'A', long: 'align', value: true, arg: 'TIME', help: 'align sample times on natural boundaries, e.g. 1min (pmval -A)' },
  { short: 'O', long: 'origin', value: true, arg: 'TIME', help: 'first sample time within the -S/-T window (pmval -O)' },
  { short: 'U', long: 'nointerp', value: true, repeat: true, arg: 'ARCHIVE', help: 'archive replayed record by record, not interpolated: every record holding the metrics, at its own time (pmval -U; -t is ignored)' },
  { short: 'f', long: 'precision', value: true, arg: 'N', help: 'fixed-point values with N decimals (pmval -f)' },
  { short: 'w', long: 'width', value: true, arg: 'N', help: 'each value column at least N characters wide (pmval -w)' },
  { short: 'X', long: 'timestamp', repeat: true, help: 'times with date and microseconds; -XX nanoseconds (pmval -X)' },
  { short: 'c', long: 'derived', value: true, repeat: true, arg: 'CONFIG', help: 'load derived metric definitions from CONFIG' },
  { short: 'o', long: 'output', value: true, arg: 'FORMAT', help: 'csv: pmrep\'s CSV (pmrep -o csv): counters as rates per second of their own units, three decimals' },
  { long: 'follow', help: "follow an archive pmlogger is still writing: samples are taken as its end grows, like a live source's, until -s N or -T (or interrupted)" },
  { long: 'json', help: 'one JSON object per line: a header, then one line per sample; an infinity or NaN is the string "Infinity", "-Infinity" or "NaN", no value is null' },
];

/** The -c hook: derived metric definitions wrap the context (src/pcp-core/derived, derived-cli.ts). */
function applyDerivedConfig(ctx: Context, configs: readonly string[], io: CommandIo): Promise<Context> {
  return applyDerivedConfigs(ctx, configs, io);
}

interface OpenedSource {
  readonly ctx: Context;
  readonly archive?: ArchiveContext;
  /** Where the archive's files are (listed again to follow it). */
  readonly fs?: FileSet;
  readonly name: string;
}

/** PCP_IGNORE_MARK_RECORDS as libpcp reads it: unset, empty (all marks), or an interval. */
function ignoreMarksFromEnv(io: CommandIo): IgnoreMarks {
  const v = process.env.PCP_IGNORE_MARK_RECORDS;
  if (v === undefined) return { kind: 'none' };
  if (v === '') return { kind: 'all' };
  try {
    // libpcp keeps the interval as a timeval: whole microseconds.
    return { kind: 'gap', seconds: Number(parseIntervalNs(v) / 1000n) / 1e6 };
  } catch {
    io.stderr(`pmdash values: Warning: bad $PCP_IGNORE_MARK_RECORDS: not in pmParseInterval(3) format: ${v}\n`);
    return { kind: 'none' };
  }
}

async function openSource(archives: readonly string[], hostOpt: string | undefined, io: CommandIo): Promise<OpenedSource> {
  if (hostOpt !== undefined && archives.length > 0) throw new UsageError('-a and -h are mutually exclusive');
  // Neither -a nor -h: the local pmcd, as pmval ("local:": its Unix socket, else localhost).
  const host = hostOpt ?? (archives.length === 0 ? 'local:' : undefined);
  if (host !== undefined) {
    // The first connection is not retried: a wrong host is reported at once.
    // Loaded on demand: the WebSocket/TCP stack costs startup time archives do not need.
    const { openLiveContext } = await import('../node/open-live-context');
    return { ctx: await openLiveContext(host, {}, process.env, (t) => io.stderr(`pmdash values: Warning: ${t}\n`)), name: host };
  }
  const name = archives.join(',');
  // Blocking reads, as libpcp's: nothing else runs meanwhile (file-source.ts).
  const fs = new DirFileSet('.', { blocking: true });
  const ctx = await openArchiveContext(fs, name, {
    counterWrap: process.env.PCP_COUNTER_WRAP !== undefined,
    ignoreMarks: ignoreMarksFromEnv(io),
  });
  return { ctx, archive: ctx, fs, name };
}

/** How far past now a followed archive's -T may lie (a -T beyond is the horizon). */
const FOLLOW_HORIZON_SEC = 366 * 24 * 3600;

/** How often a followed archive is looked at again while a sample's time has not come. */
function followPollMs(deltaNs: bigint): number {
  return Math.min(1000, Math.max(100, Number(deltaNs / 1_000_000n)));
}

/** pmLookupInDom's match: the full name, else the name up to its first space. */
function instanceId(names: readonly string[], ids: Int32Array, want: string): number | undefined {
  let i = names.indexOf(want);
  if (i < 0) i = names.findIndex((n) => n.split(' ')[0] === want);
  return i < 0 ? undefined : ids[i];
}

function splitInstances(list: string): string[] {
  const out: string[] = [];
  for (const m of list.matchAll(/"([^"]*)"|'([^']*)'|([^,]+)/g)) {
    const s = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (s !== '') out.push(s);
  }
  return out;
}

/** A non-negative integer option (pmval's -f, -w), at least `min`. */
function optInteger(args: ParsedArgs, key: string, flag: string, min: number): number | undefined {
  const text = optString(args, key);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min) throw new UsageError(`${flag} ${text}: not an integer ${min > 0 ? 'greater than 0' : '0 or more'}`);
  // printf's precision: more than 100 digits prints nothing any reader wants.
  if (key === 'precision' && n > 100) throw new UsageError(`${flag} ${text}: at most 100 decimals`);
  return n;
}

/** pmval's timing: origin as a timeval (whole µs) and Δ as a whole number of milliseconds. */
function pmvalDeltaNs(intervalNs: bigint): bigint {
  const sec = intervalNs / 1_000_000_000n;
  const usec = (intervalNs % 1_000_000_000n) / 1000n;
  const stepMs = BigInt(Math.trunc(Number(sec) * 1e3 + Number(usec) / 1e3));
  if (stepMs <= 0n) throw new UsageError('-t: the interval must be at least 1 millisecond');
  return stepMs * 1_000_000n;
}

async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseArgs(argv, valuesOptions);
  const names = args.positionals;
  if (names.length === 0) throw new UsageError('at least one metric name is required');
  const intervalNs = parseIntervalNs(optString(args, 'interval') ?? '1');
  const samplesText = optString(args, 'samples');
  const samplesOpt = samplesText === undefined ? undefined : Number(samplesText);
  if (samplesOpt !== undefined && (!Number.isInteger(samplesOpt) || samplesOpt < 0)) throw new UsageError(`-s ${samplesText}: not a number of samples`);
  const raw = optFlag(args, 'raw');
  const json = optFlag(args, 'json');
  const output = optString(args, 'output');
  if (output !== undefined && output !== 'csv') throw new UsageError(`-o ${output}: the output format must be csv`);
  const csv = output === 'csv';
  if (csv && json) throw new UsageError('-o csv and --json are mutually exclusive');
  const fixed = optInteger(args, 'precision', '-f', 0);
  const width = optInteger(args, 'width', '-w', 1);
  const fullTimes = optCount(args, 'timestamp');
  const nointerp = optList(args, 'nointerp');
  const follow = optFlag(args, 'follow');
  if (follow && (nointerp.length > 0 || optList(args, 'archive').length === 0)) throw new UsageError('--follow follows an archive given with -a');

  const src = await openSource([...optList(args, 'archive'), ...nointerp], optString(args, 'host'), io);
  try {
    // -U: the archive record by record (values-records.ts), beneath any derived metrics.
    const base = nointerp.length > 0 && src.archive ? new RecordContext(src.archive) : src.ctx;
    const ctx = await applyDerivedConfig(base, optList(args, 'derived'), io);
    // Metrics and descriptors.
    const ids = await ctx.lookupNames(names);
    ids.forEach((id, i) => {
      if (id < 0) throw new UsageError(`${names[i]}: ${pmErrStr(id)}`);
    });
    const pmids = ids as PmId[];
    const descs = await ctx.lookupDescs(pmids);
    const metrics: SampledMetric[] = [];
    for (let i = 0; i < names.length; i++) {
      const d = descs[i];
      if (typeof d === 'number') throw new UsageError(`${names[i]}: ${pmErrStr(d)}`);
      // An indom without metadata (PM_ERR_INDOM_LOG) has no names: instances print as ids.
      const known =
        d.indom === PM_INDOM_NULL
          ? undefined
          : await ctx.getInDom(d.indom).catch((e: unknown) => {
              if (isPmError(e) && e.code === PM_ERR_INDOM_LOG) return undefined;
              throw e;
            });
      const byId = new Map<number, string>();
      if (known) known.instances.forEach((inst, k) => byId.set(inst, known.names[k]));
      // CSV samples raw values: its rates are pmrep's (values-csv.ts), not pmval's.
      metrics.push({ name: names[i], desc: d, rate: !csv && isRateConverted(d, raw), instName: (inst) => (inst === -1 ? '' : (byId.get(inst) ?? String(inst))) });
    }
    // -i: restrict every metric with an instance domain to the named instances.
    const instOpt = optString(args, 'instances');
    /** Per indom, the instances -i chose. */
    const chosenIds = new Map<InDom, number[]>();
    if (instOpt !== undefined) {
      const wanted = splitInstances(instOpt);
      const done = new Set<InDom>();
      for (const m of metrics) {
        if (m.desc.indom === PM_INDOM_NULL || done.has(m.desc.indom)) continue;
        done.add(m.desc.indom);
        const all = await ctx.getInDom(m.desc.indom);
        const chosen = wanted.map((w) => {
          const id = instanceId(all.names, all.instances, w);
          if (id === undefined) throw new UsageError(`${m.name}: instance "${w}": ${pmErrStr(PM_ERR_INST_LOG)}`);
          return id;
        });
        chosenIds.set(m.desc.indom, chosen);
        ctx.changeProfile({ op: 'delete', indom: m.desc.indom });
        ctx.changeProfile({ op: 'add', indom: m.desc.indom, instances: chosen });
      }
    }
    // Zone for -S/-T dates and printed times: local, the source's (-z) or TZ (-Z).
    const tzOpt = optString(args, 'timezone');
    // Built only when needed (dates in -S/-T, or the table): setting up a zone costs time.
    let zoneMemo: Zone | undefined;
    const zone = (): Zone =>
      (zoneMemo ??=
        tzOpt !== undefined ? Zone.fromTz(tzOpt) : optFlag(args, 'hostzone') ? archiveZone(src.ctx.source.timezone, src.ctx.source.kind === 'archive' || src.ctx.source.kind === 'live' ? src.ctx.source.zoneinfo : '') : localZone());
    let plan: SamplingPlan;
    if (!src.archive) {
      // Live: a fetch every -t from now on, -s times (or until interrupted, with --json).
      if (['start', 'finish', 'align', 'origin'].some((k) => optString(args, k) !== undefined)) throw new UsageError('-S, -T, -A and -O apply to archives; with -h use -s N');
      if (samplesOpt === undefined && !json && !csv) throw new UsageError('with -h, give -s N for a table, or --json or -o csv to stream samples until interrupted');
      plan = { origin: { sec: 0, nsec: 0 }, deltaNs: pmvalDeltaNs(intervalNs), samples: samplesOpt, archive: false, counterWrap: process.env.PCP_COUNTER_WRAP !== undefined };
    } else {
      // Time window and sample count, as pmval computes them.
      const start = src.ctx.source.kind === 'archive' ? src.ctx.source.start : { sec: 0, nsec: 0 };
      const end = await src.archive.archiveEnd();
      const window = { start: optString(args, 'start'), finish: optString(args, 'finish'), align: optString(args, 'align'), origin: optString(args, 'origin') };
      // An -A that cannot be applied is ignored without a word, as pmval (libpcp's warning is dropped).
      const { origin, finish } = Object.values(window).every((v) => v === undefined) ? { origin: start, finish: end } : parseValuesWindow(window, start, end, zone());
      let samples = samplesOpt;
      // -U: every record up to -T (or the end), as pmval counts no samples in PM_MODE_FORW.
      if (samples === undefined && nointerp.length === 0) {
        const step = timestampToReal({ sec: Number(intervalNs / 1_000_000_000n), nsec: Number(intervalNs % 1_000_000_000n) });
        const n = Math.trunc((timestampToReal(finish) - timestampToReal(origin)) / step);
        samples = n < 0 ? 0 : n + 1;
      }
      const pmvalOrigin: Timestamp = { sec: origin.sec, nsec: Math.floor(origin.nsec / 1000) * 1000 };
      plan = { origin: pmvalOrigin, deltaNs: pmvalDeltaNs(intervalNs), samples, finish, archive: true, counterWrap: process.env.PCP_COUNTER_WRAP !== undefined };
      if (follow) {
        // Followed: the end is where pmlogger has got to, not a limit; -s or -T stop the run.
        const archive = src.archive;
        const fs = src.fs as FileSet;
        let known = end;
        const pollMs = followPollMs(plan.deltaNs);
        const wait = async (t: Timestamp): Promise<void> => {
          while (timestampToReal(known) < timestampToReal(t)) {
            await new Promise((r) => setTimeout(r, pollMs));
            known = await archive.follow(fs);
          }
        };
        // -T names a time pmlogger has yet to reach: not clamped to the end at opening.
        const ahead = { sec: Math.max(end.sec, Math.floor(Date.now() / 1000)) + FOLLOW_HORIZON_SEC, nsec: 0 };
        const followFinish = optString(args, 'finish') === undefined ? undefined : parseValuesWindow(window, start, ahead, zone()).finish;
        plan = { ...plan, samples: samplesOpt, finish: followFinish, follow: wait };
      }
    }

    if (json) io.stdout(jsonHeader(metrics) + '\n');
    let csvWriter: CsvWriter | undefined;
    if (csv) {
      // pmrep's columns: each metric's whole instance domain, in its order (-i: those chosen).
      const instances: Array<number[] | undefined> = [];
      for (const m of metrics) {
        if (m.desc.indom === PM_INDOM_NULL) instances.push(undefined);
        else {
          const all = Array.from((await ctx.getInDom(m.desc.indom)).instances);
          const chosen = chosenIds.get(m.desc.indom);
          instances.push(chosen ? all.filter((i) => chosen.includes(i)) : all);
        }
      }
      csvWriter = new CsvWriter(metrics, instances, raw, zone(), plan.counterWrap);
      io.stdout(csvWriter.header());
    }
    const jsonSample = jsonSampleFormatter(metrics);
    let timeText: ((t: Timestamp) => string) | undefined;
    // The table is built as samples come (its cells as text), not from retained samples.
    const formatTime = (t: Timestamp): string => (timeText ??= zoneFormatter(zone(), fullTimes))(t);
    const tableInfo = (): TableInfo => ({ source: src.name, host: src.ctx.source.hostname, timeLabel: zone().tz, intervalSec: nointerp.length > 0 ? undefined : Number(plan.deltaNs) / 1e9, raw });
    const live = !plan.archive || plan.follow !== undefined;
    // The archive table writes its times as bytes (zoneTimeWriter), through the zone's
    // formatter where that cannot (-X, damaged stamps).
    const table = json || csvWriter || live ? undefined : new TableBuilder(metrics, zoneFormatter(zone(), fullTimes), { fixed, width }, zoneTimeWriter(zone(), fullTimes));
    // Live (or followed): each row is printed as it is taken (pmval does), so a lost pmcd loses nothing shown.
    const stream = json || csvWriter || !live ? undefined : new TableStream(metrics, tableInfo(), formatTime, { fixed, width });
    // JSON lines are written in batches: one write per line costs more than the replay.
    let batch = '';
    const flush = async (): Promise<void> => {
      if (batch === '') return;
      io.stdout(batch);
      batch = '';
      if (io.drain) await io.drain();
    };
    // Set here, after start-up and the metadata (v8-tuning.ts says why).
    if (plan.archive) tuneForReplay();
    try {
      // The table takes an archive's samples in runs (SampleRun), the other outputs one by one.
      if (table) for await (const taken of sampleBatches(ctx, metrics, pmids, { ...plan, runs: true })) table.addAll(taken);
      else for await (const samples of sampleBatches(ctx, metrics, pmids, { ...plan, runs: false })) {
        for (const s of samples) {
          if (json || csvWriter) {
            batch += csvWriter ? csvWriter.line(s) : jsonSample(s) + '\n';
            // Live sources print each sample as it comes; archives in 64 KB batches.
            if (live || batch.length >= 65536) await flush();
          } else if (stream) {
            io.stdout(stream.add(s));
            if (io.drain) await io.drain();
          }
        }
      }
    } catch (e) {
      // What was taken before the failure goes out first, as pmval prints it; then the error.
      await flush();
      if (table) writeTable(io, table, tableInfo());
      throw e;
    }
    await flush();
    if (table) writeTable(io, table, tableInfo());
    return 0;
  } catch (e) {
    // The replay reports libpcp's code alone (pmFetch, pmGetArchiveEnd): name the source.
    if (isPmError(e) && e.context === '') throw new PmError(e.code, e.message, src.name);
    throw e;
  } finally {
    await src.ctx.close();
  }
}

/** The finished table, as bytes where the process takes them so. */
function writeTable(io: CommandIo, table: TableBuilder, info: TableInfo): void {
  if (io.stdoutBytes) io.stdoutBytes(table.finishBytes(info));
  else io.stdout(table.finish(info));
}

export const valuesCommand: Command = {
  name: 'values',
  summary: 'metric values over time from archives or a live pmcd, as pmval/pmrep report them (rates for counters)',
  usage: '[-a ARCHIVE [--follow] | -U ARCHIVE | -h HOST] [-t INTERVAL] [-S START] [-T FINISH] [-A ALIGN] [-O ORIGIN] [-s SAMPLES] [-r] [-i INSTANCES] [-z | -Z TZ] [-f N] [-w N] [-X] [-c CONFIG] [--json | -o csv] METRIC...',
  options: valuesOptions,
  async run(argv, io) {
    try {
      return await run(argv, io);
    } catch (e) {
      if (isPmError(e)) {
        io.stderr(`pmdash values: ${e.describe()}\n`);
        return 1;
      }
      throw e;
    }
  },
};
