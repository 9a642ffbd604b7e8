// `pmdash dump` restricted as pmdumplog restricts it, against pmdumplog on QA archives:
// metric names (subtrees expanded; each record's sets of those metrics in the order named,
// records holding none and <mark>s passed over), -S/-T (records in the time window), and -L
// (the label, byte for byte). The records are compared by their times (pmdumplog's time of
// day in UTC, µs for V2 and ns for V3) and the pmids of their sets, in order.
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool } from '../../test/oracle';
import { main } from './main';

async function pmdash(argv: readonly string[], env: Record<string, string>): Promise<{ stdout: string; status: number; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const status = await main(['dump', ...argv], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
    return { stdout, status, stderr };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** pmdumplog's records: "TIME pmid pmid ..." or "TIME <mark>". */
function pmdumplogRecords(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const head = /^(\d\d:\d\d:\d\d\.\d+)\s+(?:(\d+) metrics?|(<mark>))$/.exec(line);
    if (head) out.push(head[3] ? `${head[1]} <mark>` : head[1]);
    // An event metric's set prints a line per instance, each naming the pmid.
    const set = /^ {4}(\d+\.\d+\.\d+) \(/.exec(line);
    if (set && out.length > 0 && !out[out.length - 1].endsWith(` ${set[1]}`)) out[out.length - 1] += ` ${set[1]}`;
  }
  return out;
}

/** Ours from --json: the same text, times of day in UTC at the archive's precision. */
function pmdashRecords(text: string, digits: number): string[] {
  return text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const r = JSON.parse(l) as { kind: string; time: string; sets?: Record<string, unknown> };
      const t = /T(\d\d:\d\d:\d\d)\.(\d{9})Z$/.exec(r.time);
      const time = `${t?.[1]}.${t?.[2].slice(0, digits)}`;
      return r.kind === 'mark' ? `${time} <mark>` : [time, ...Object.keys(r.sets ?? {})].join(' ');
    });
}

const A = (n: string): string => `${QA_ARCHIVES}/${n}`;
const UTC = { TZ: 'UTC' };

interface Case {
  readonly archive: string;
  readonly digits: number;
  readonly args: readonly string[];
}

const CASES: Case[] = [
  { archive: '20180606', digits: 6, args: ['hinv.ncpu'] },
  { archive: '20180606', digits: 6, args: ['kernel.all.load', 'hinv.ncpu', 'mem.util.free'] },
  { archive: '20180606', digits: 6, args: ['kernel.all'] },
  { archive: '20180606', digits: 6, args: ['-S', '+5min', '-T', '+7min'] },
  { archive: '20180606', digits: 6, args: ['-S', '+1hour', '-T', '+3min', 'disk', 'hinv.ncpu'] },
  { archive: '20180606', digits: 6, args: ['-S', '@14:20:11.627', '-T', '@14:25:11.627'] },
  { archive: 'interpmark', digits: 6, args: [] },
  { archive: 'interpmark', digits: 6, args: ['-S', '+20', '-T', '+60'] },
  { archive: 'interpmark', digits: 6, args: ['network.tcpconn.close', 'kernel'] },
  { archive: 'omnibus_v3', digits: 9, args: ['sample.colour', 'sampledso.event'] },
  { archive: 'omnibus_v3', digits: 9, args: ['-S', '+1.5', '-T', '+5', 'sample'] },
  { archive: '20180416.10.00', digits: 6, args: ['-S', '+30min', '-T', '+31min', 'kernel.all.cpu'] },
];

describe('pmdash dump METRIC... / -S / -T match pmdumplog', () => {
  it.each(CASES.map((c) => [`${c.archive} ${c.args.join(' ')}`, c] as const))('%s', async (_label, c) => {
    const theirs = await runTool('pmdumplog', [...c.args.filter((a) => a.startsWith('-') || c.args[c.args.indexOf(a) - 1]?.startsWith('-')), A(c.archive), ...c.args.filter((a, i) => !a.startsWith('-') && !c.args[i - 1]?.startsWith('-'))], { env: UTC });
    expect(theirs.status, theirs.stderr).toBe(0);
    const ours = await pmdash(['--json', '-a', A(c.archive), ...c.args], UTC);
    expect(ours.status, ours.stderr).toBe(0);
    const expected = pmdumplogRecords(theirs.stdout);
    expect(expected.length).toBeGreaterThan(0);
    expect(pmdashRecords(ours.stdout, c.digits)).toEqual(expected);
  });

  it('reports unknown names and gives up when none is known', async () => {
    const r = await pmdash(['-a', A('20180606'), 'no.such'], UTC);
    const theirs = await runTool('pmdumplog', [A('20180606'), 'no.such'], { env: UTC });
    expect(r.stderr).toBe(theirs.stderr.replaceAll('pmdumplog: ', 'pmdash dump: ').replace('No metric', 'pmdash dump: No metric'));
    expect(r.status).toBe(1);
  });
});

describe('pmdash dump -L matches pmdumplog -L', () => {
  it.each(['20180606', 'omnibus_v3', 'omnibus_v2', 'interpmark', '20180416.10.00', 'pcp-pidstat-process-args', 'tzchange-10-a'])('%s', async (name) => {
    for (const env of [UTC, { TZ: 'Australia/Melbourne' }, { TZ: 'EST5EDT' }]) {
      const theirs = await runTool('pmdumplog', ['-L', A(name)], { env });
      expect(theirs.status, theirs.stderr).toBe(0);
      const ours = await pmdash(['-L', '-a', A(name)], env);
      expect(ours.stdout).toBe(theirs.stdout);
      expect(ours.status).toBe(0);
    }
  });
});
