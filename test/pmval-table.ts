// pmval's output as a table, for tests comparing the engine's values with pmval's: one
// metric over a window, every instance, times in UTC.
import { execFileSync } from 'node:child_process';
import { runTool } from './oracle';

const WIDTH = 24;

/**
 * pmval's table for one metric, all instances (the chart's request): instance name →
 * (HH:MM:SS.mmm → value text, '' for "?" or "No values available"). pmval prints each
 * instance in a column of WIDTH characters after a 12-character time, and repeats the header
 * line whenever the instances change.
 */
export async function pmvalTable(archive: string, metric: string, startSpec: string, endSpec: string, stepSec: number, env?: NodeJS.ProcessEnv): Promise<Map<string, Map<string, string>>> {
  const run = await runTool('pmval', ['-Z', 'UTC', '-f', '6', '-w', String(WIDTH), '-a', archive, '-S', startSpec, '-T', endSpec, '-t', String(stepSec), metric], { env });
  if (run.status !== 0) throw new Error(`pmval ${metric}: ${run.stderr}`);
  const out = new Map<string, Map<string, string>>();
  const field = (line: string, k: number): string => line.slice(12 + k * (WIDTH + 1), 12 + (k + 1) * (WIDTH + 1)).trim();
  let names: string[] = [''];
  let body = false;
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('interval:')) body = true;
    if (!body || line.trim() === '' || line.startsWith('interval:')) continue;
    const time = /^(\d\d:\d\d:\d\d\.\d{3})/.exec(line)?.[1];
    if (time === undefined) {
      names = [];
      for (let k = 0; field(line, k) !== ''; k++) names.push(field(line, k));
      continue;
    }
    names.forEach((name, k) => {
      let m = out.get(name);
      if (!m) out.set(name, (m = new Map<string, string>()));
      const v = line.includes('No values available') ? '' : field(line, k);
      m.set(time, /^[-+0-9.eE]+$/.test(v) ? v : '');
    });
  }
  return out;
}

/** pmval's -S/-T form of an epoch time in milliseconds, in UTC. */
export const ctime = (ms: number): string => {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `@${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)} ${d.getUTCFullYear()}`;
};

/** What `pmvalColumn` asks pmval for: one instance (or a singular metric), `samples` at `stepSec`. */
export interface PmvalColumn {
  readonly archive: string;
  readonly metric: string;
  readonly inst?: string;
  readonly stepSec: number;
  readonly samples: number;
  /** pmval -S, e.g. `+600`. */
  readonly start?: string;
  /** pmval -f (default 6). */
  readonly precision?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** pmval's numbers for one instance, one per sample; NaN for "No values available" and "?". */
export function pmvalColumn(q: PmvalColumn): number[] {
  const args = ['-z', '-f', String(q.precision ?? 6), '-a', q.archive, ...(q.start === undefined ? [] : ['-S', q.start]), '-t', String(q.stepSec), '-s', String(q.samples), ...(q.inst === undefined ? [] : ['-i', `"${q.inst}"`]), q.metric];
  const out = execFileSync('pmval', args, { encoding: 'utf8', env: q.env ?? process.env });
  // The time is fixed width; with -f 6 a wide number follows it without a space.
  return out.split('\n').flatMap((l) => {
    const m = /^\d\d:\d\d:\d\d\.\d{3}(.*)$/.exec(l);
    if (!m) return [];
    const v = (m[1] ?? '').trim();
    return [/^[-+0-9.eE]+$/.test(v) ? Number(v) : NaN];
  });
}
