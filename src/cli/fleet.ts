// `pmdash fleet`: the store behind a pmproxy's /series REST API, from the command line, over
// the same client the app uses (src/pcp-core/fleet): `hosts` (hostnames, labels, sources),
// `metrics PATTERN` (names in the store), `values METRIC -S -T` (stored samples of a metric
// on each host over a window; counters through rate() unless -r; instances folded with
// --aggregate). The pmproxy is --pmproxy URL, else $PMPROXY_HOST[:$PMPROXY_PORT], else
// localhost:44322. Output: a table, or --json.
import { parsePmproxyUrl } from '../../server/pmproxy-proxy';
import { envProxy } from '../node/host-spec';
import { isPmError } from '../pcp-core/errors';
import { FleetClient, type Aggregate, type ChartResult, type FleetHost } from '../pcp-core/fleet';
import { Zone, formatCtimeFraction, parseTimeWindow, type TimeContext } from '../pcp-core/time';
import type { Timestamp } from '../pcp-core/types';
import { optFlag, optList, optString, parseArgs, UsageError, type OptionSpec, type ParsedArgs } from './args';
import type { Command, CommandIo } from './command';
import { localZone } from './values-time';

const options: readonly OptionSpec[] = [
  { long: 'pmproxy', value: true, arg: 'URL', help: 'the pmproxy: http://HOST[:PORT] or HOST[:PORT] (default $PMPROXY_HOST, $PMPROXY_PORT, else localhost:44322)' },
  { long: 'host', value: true, repeat: true, arg: 'HOST', help: 'values: a host (hostname label) to report (repeatable; default every host in the store)' },
  { short: 'S', long: 'start', value: true, arg: 'TIME', help: 'values: window start: @date, -offset from -T, or any pmParseTimeWindow form (default one hour before -T)' },
  { short: 'T', long: 'finish', value: true, arg: 'TIME', help: 'values: window end (default now)' },
  { short: 'r', long: 'raw', help: 'values: counters as stored, not through rate()' },
  { long: 'aggregate', value: true, arg: 'HOW', help: 'values: fold instances per sample: sum, avg, max, min, or topN (e.g. top3)' },
  { long: 'width', value: true, arg: 'PX', help: 'values: at most about 2 samples per pixel of a chart this wide (default: every stored sample)' },
  { short: 'Z', long: 'timezone', value: true, arg: 'TZ', help: 'print (and read -S/-T) times in time zone TZ (default the local zone)' },
  { long: 'json', help: 'JSON output' },
];

/** The pmproxy URL from --pmproxy, else $PMPROXY_HOST/$PMPROXY_PORT, else localhost:44322. */
export function fleetPmproxy(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const proxy = envProxy(env);
  const text = flag ?? (proxy ? `${proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host}:${proxy.port}` : 'localhost:44322');
  try {
    return parsePmproxyUrl(text).href.replace(/\/$/, '');
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

function parseAggregate(text: string | undefined): Aggregate {
  if (text === undefined) return 'none';
  if (text === 'sum' || text === 'avg' || text === 'max' || text === 'min') return text;
  const m = /^top(\d+)$/.exec(text);
  if (m?.[1] && Number(m[1]) > 0) return { topk: Number(m[1]) };
  throw new UsageError(`bad --aggregate '${text}' (sum, avg, max, min or topN)`);
}

/** ISO 8601 UTC with microseconds (pmproxy's resolution) from epoch milliseconds. */
function isoMicros(ms: number): string {
  const us = Math.round(ms * 1000);
  const sec = Math.floor(us / 1e6);
  return `${new Date(sec * 1000).toISOString().slice(0, 19)}.${String(us - sec * 1e6).padStart(6, '0')}Z`;
}

function timestampOfMs(ms: number): Timestamp {
  const us = Math.round(ms * 1000);
  const sec = Math.floor(us / 1e6);
  return { sec, nsec: (us - sec * 1e6) * 1000 };
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ')).join('\n') + '\n';
}

function labelText(labels: FleetHost['labels']): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(',');
}

async function hosts(client: FleetClient, args: ParsedArgs, io: CommandIo): Promise<number> {
  const list = await client.hosts();
  if (optFlag(args, 'json')) {
    io.stdout(JSON.stringify(list, null, 2) + '\n');
    return 0;
  }
  io.stdout(table([['HOST', 'SOURCES', 'LABELS'], ...list.map((h) => [h.hostname, h.sources.flatMap((s) => s.names).join(',') || '-', labelText(h.labels)])]));
  return 0;
}

async function metrics(client: FleetClient, args: ParsedArgs, io: CommandIo): Promise<number> {
  const pattern = args.positionals[1];
  if (pattern === undefined) throw new UsageError('metrics needs a PATTERN (a metric name or glob such as kernel.all.*)');
  const names = await client.metrics(pattern);
  io.stdout(optFlag(args, 'json') ? JSON.stringify(names) + '\n' : names.map((n) => `${n}\n`).join(''));
  return 0;
}

/** -S/-T as pmParseTimeWindow reads them, over a store whose history is [epoch, now]. */
function window(args: ParsedArgs, zone: Zone): { startSec: number; finishSec: number } {
  const now = Date.now();
  const nowTs: Timestamp = { sec: Math.floor(now / 1000), nsec: (now % 1000) * 1e6 };
  const ctx: TimeContext = { zone, now: () => nowTs };
  const finish = optString(args, 'finish');
  const start = optString(args, 'start') ?? (finish === undefined ? '-1hour' : undefined);
  const r = parseTimeWindow({ start, finish }, { sec: 0, nsec: 0 }, nowTs, ctx);
  if (!r.ok) throw new UsageError(`${r.error.spec === finish ? '-T' : '-S'} ${r.error.spec}: ${r.error.reason}`);
  let origin = r.origin;
  // With -T alone, the window is the hour before it (not since 1970).
  if (optString(args, 'start') === undefined && finish !== undefined) origin = { sec: r.end.sec - 3600, nsec: r.end.nsec };
  const startSec = origin.sec + origin.nsec / 1e9;
  const finishSec = r.end.sec + r.end.nsec / 1e9;
  if (!(finishSec > startSec)) throw new UsageError('the window is empty (-S is not before -T)');
  return { startSec, finishSec };
}

function printValues(result: ChartResult, zone: Zone, io: CommandIo): void {
  const rows: string[][] = [['HOST', 'INSTANCE', 'TIME', 'VALUE']];
  for (const h of result.hosts) {
    for (const line of h.lines) {
      line.timesMs.forEach((t, i) => rows.push([h.host, line.name || '-', formatCtimeFraction(zone, timestampOfMs(t), 6), String(line.values[i])]));
    }
  }
  io.stdout(table(rows));
}

async function values(client: FleetClient, args: ParsedArgs, io: CommandIo): Promise<number> {
  const metric = args.positionals[1];
  if (metric === undefined) throw new UsageError('values needs a METRIC');
  const tz = optString(args, 'timezone');
  const zone = tz !== undefined ? Zone.fromTz(tz) : localZone();
  const w = window(args, zone);
  const widthText = optString(args, 'width');
  const width = widthText === undefined ? 1e9 : Number(widthText);
  if (!Number.isInteger(width) || width < 1) throw new UsageError(`bad --width '${widthText}'`);
  const given = optList(args, 'host');
  const hostList = given.length > 0 ? given : (await client.hosts()).map((h) => h.hostname);
  const result = await client.chart({ metric, hosts: hostList, ...w, widthPx: width, rate: !optFlag(args, 'raw'), aggregate: parseAggregate(optString(args, 'aggregate')) });
  if (optFlag(args, 'json')) {
    const out = {
      metric,
      start: isoMicros(w.startSec * 1000),
      finish: isoMicros(w.finishSec * 1000),
      hosts: result.hosts.map((h) => ({
        host: h.host,
        expr: h.expr,
        // The expression is the raw counter pmproxy subsampled; the values are rates taken here.
        ...(h.rateHere && { rate: 'between the stored samples kept' }),
        ...(h.desc ? { semantics: h.desc.semantics, units: h.desc.units, type: h.desc.type } : {}),
        ...(h.error ? { error: h.error.describe() } : {}),
        lines: h.lines.map((l) => ({ name: l.name, ...(l.instance ? { instance: l.instance } : {}), samples: Array.from(l.timesMs, (t, i) => ({ time: isoMicros(t), value: l.values[i] })) })),
      })),
    };
    io.stdout(JSON.stringify(out, null, 2) + '\n');
  } else {
    printValues(result, zone, io);
  }
  let status = 0;
  for (const h of result.hosts) {
    if (h.error) {
      io.stderr(`pmdash fleet values: host ${h.host}: ${h.error.describe()}\n`);
      status = 1;
    }
  }
  return status;
}

export const fleetCommand: Command = {
  name: 'fleet',
  summary: "hosts, metrics and values in a pmproxy's /series store (many hosts' history)",
  usage: 'hosts | metrics PATTERN | values METRIC [-S TIME] [-T TIME] [--host HOST ...] [-r] [--aggregate HOW] [--width PX]  [--pmproxy URL] [--json]',
  options,
  async run(argv, io) {
    const args = parseArgs(argv, options);
    const sub = args.positionals[0];
    const client = new FleetClient({ baseUrl: fleetPmproxy(optString(args, 'pmproxy'), process.env), fetch });
    const run = sub === 'hosts' ? hosts : sub === 'metrics' ? metrics : sub === 'values' ? values : undefined;
    if (!run) throw new UsageError(sub === undefined ? 'a subcommand is needed: hosts, metrics or values' : `unknown subcommand '${sub}' (hosts, metrics or values)`);
    try {
      return await run(client, args, io);
    } catch (e) {
      if (isPmError(e)) {
        io.stderr(`pmdash fleet ${sub}: ${e.describe()}\n`);
        return 1;
      }
      throw e;
    }
  },
};
