// matchinst() values against pmval on a QA archive with file-system instances: the same
// configuration file is given to `pmval --derived` and to `pmdash values -c`; at each of
// pmval's sample times the instances present and their values must be the same. The
// patterns include the ReDoS shapes of issue 16 (nested and alternated stars before an
// anchor), which a backtracking matcher could not answer; here they must simply complete.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool, scratchDir } from '../../../test/oracle';
import { main } from '../../cli/main';

const ARCHIVE = `${QA_ARCHIVES}/20180416.10.00`;
const PATTERNS = [
  '/^(.*)*Q$/', '/^(.|.)*Q$/', '/^(.*)*1$/', '!/^(.|.)*e$/', '/^(\\/[a-z]+)+\\/sd[a-z][0-9]$/', '/(-)\\1/', '/^\\/dev\\/(mapper|sd)/', '/fedora_[[:alpha:]]+--[0-9]{2}/',
  '!/sda/', '/\\bhome$/', '/^((((((((((\\/))))))))))dev/',
];

type Sample = Map<string, number>;

/** pmval's table: "full label for instance[i]: NAME" lines name the columns; '?' is absent. */
function parsePmval(text: string): Sample[] {
  const names: string[] = [];
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const label = /^full label for instance\[\d+\]: (.*)$/.exec(line);
    if (label) names.push(label[1]);
    else if (/^ {8,}\S/.test(line) && names.length === 0) names.push(...line.trim().split(/\s+/));
    else if (/^\d\d:\d\d:\d\d\.\d{3}\s+No values available/.test(line)) out.push(new Map());
    else if (/^\d\d:\d\d:\d\d\.\d{3}\s/.test(line)) {
      const cells = line.trim().split(/\s+/).slice(1);
      const s: Sample = new Map();
      cells.forEach((c, i) => {
        if (c !== '?') s.set(names[i], Number(c));
      });
      out.push(s);
    }
  }
  return out;
}

/** Every metric's samples from one `pmdash values` run. */
async function pmdashSamples(config: string, metrics: readonly string[]): Promise<Map<string, Sample[]>> {
  let out = '';
  let err = '';
  const saved = process.env.PCP_DERIVED_CONFIG;
  process.env.PCP_DERIVED_CONFIG = '';
  try {
    const status = await main(['values', '--json', '-c', config, '-a', ARCHIVE, '-t', '20min', '-s', '8', ...metrics], { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
    if (status !== 0) throw new Error(`pmdash values exited ${status}: ${err}`);
  } finally {
    process.env.PCP_DERIVED_CONFIG = saved;
  }
  const samples = out
    .split('\n')
    .filter((l) => l.startsWith('{"kind":"sample"'))
    .map((l) => (JSON.parse(l) as { values: Record<string, Record<string, number>> }).values);
  return new Map(metrics.map((m) => [m, samples.map((v) => new Map(Object.entries(v[m] ?? {})))]));
}

describe('matchinst over filesys.full matches pmval', () => {
  const dir = scratchDir('pmdash-matchinst-');
  const config = join(dir, 'matchinst.conf');
  writeFileSync(config, PATTERNS.map((p, i) => `mi.p${i} = matchinst(${p}, filesys.full)\n`).join(''));

  let all: Promise<Map<string, Sample[]>> | undefined;

  it.each(PATTERNS.map((p, i) => [p, i] as const))('%s', async (_p, i) => {
    const metric = `mi.p${i}`;
    const run = await runTool('pmval', [`--derived=${config}`, '-a', ARCHIVE, '-t', '20min', '-s', '8', '-f', '6', metric], { env: { PCP_DERIVED_CONFIG: '' } });
    expect(run.status, run.stderr).toBe(0);
    const theirs = parsePmval(run.stdout);
    all ??= pmdashSamples(config, PATTERNS.map((_, k) => `mi.p${k}`));
    const ours = (await all).get(metric) ?? [];
    expect(ours.length).toBe(8);
    expect(ours.map((s) => [...s.keys()].sort())).toEqual(theirs.map((s) => [...s.keys()].sort()));
    ours.forEach((s, k) => {
      for (const [name, v] of s) expect(Math.abs(v - (theirs[k].get(name) ?? NaN))).toBeLessThan(1e-6);
    });
  });
});
