// Runs one fetchgroup script — registrations (items, indoms, event fields, timestamps; scale
// strings, output types) then fetches — through pmdash's FetchGroup and through python3-pcp's
// pmapi.fetchgroup (test/oracle/fetchgroup.py), and puts both transcripts in one comparable
// shape. Used by the fetchgroup conformance tests over plain and derived metrics.
import { join } from 'node:path';
import { PM_MODE_BACK, PM_MODE_FORW, PM_MODE_INTERP, type Context } from '../src/pcp-core/context/context';
import { isPmError } from '../src/pcp-core/errors';
import type { OutValue } from '../src/pcp-core/fetchgroup/cast';
import type { EventOutput, FetchGroup, IndomOutput, ItemOutput, TimestampOutput } from '../src/pcp-core/fetchgroup/fetch-group';
import { PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_STRING } from '../src/pcp-core/types';
import { PYTHON, runTool } from './oracle';

export type FetchGroupReg =
  | { kind: 'item'; metric: string; type: number; instance?: string; scale?: string }
  | { kind: 'indom'; metric: string; type: number; maxnum: number; scale?: string }
  | { kind: 'event'; metric: string; field: string; type: number; maxnum: number; instance?: string; scale?: string }
  | { kind: 'timestamp' };

export interface FetchGroupScenario {
  readonly name: string;
  readonly archive: string;
  readonly mode?: { mode: 'interp' | 'forw' | 'back'; origin: [number, number]; delta: [number, number] };
  /** Derived metrics registered before the context is made (pmRegisterDerivedMetric). */
  readonly derived?: Array<[string, string]>;
  readonly regs: FetchGroupReg[];
  readonly fetches: number;
  readonly env?: Record<string, string>;
}

export interface FetchGroupTranscript {
  readonly extend: number[];
  readonly fetches: Array<{ sts: number; outs: unknown[] }>;
}

function enc(v: OutValue, type: number): string | null {
  if (type === PM_TYPE_STRING) return v === null ? null : `s:${v as string}`;
  if (typeof v === 'number' && (type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE)) return Number.isNaN(v) ? 'f:nan' : `f:${v}`;
  return typeof v === 'bigint' || typeof v === 'number' ? String(v) : null;
}

/** Sets the scenario's mode on `ctx`, registers on `fg`, fetches; destroys `fg` at the end. */
export async function runOurs(sc: FetchGroupScenario, ctx: Context, fg: FetchGroup): Promise<FetchGroupTranscript> {
  try {
    if (sc.mode) {
      const m = ({ interp: PM_MODE_INTERP, forw: PM_MODE_FORW, back: PM_MODE_BACK } as const)[sc.mode.mode];
      ctx.setMode(m, { sec: sc.mode.origin[0], nsec: sc.mode.origin[1] }, BigInt(sc.mode.delta[0]) * 1_000_000_000n + BigInt(sc.mode.delta[1]));
    }
    const extend: number[] = [];
    const outs: [FetchGroupReg, ItemOutput | IndomOutput | EventOutput | TimestampOutput][] = [];
    for (const r of sc.regs) {
      try {
        let h;
        if (r.kind === 'item') h = await fg.extendItem(r.metric, r.type, { instance: r.instance, scale: r.scale });
        else if (r.kind === 'indom') h = await fg.extendIndom(r.metric, r.type, r.maxnum, { scale: r.scale });
        else if (r.kind === 'event') h = await fg.extendEvent(r.metric, r.field, r.type, r.maxnum, { instance: r.instance, scale: r.scale });
        else h = fg.extendTimestamp();
        outs.push([r, h]);
        extend.push(0);
      } catch (e) {
        if (!isPmError(e)) throw e;
        extend.push(e.code);
      }
    }
    const fetches = [];
    for (let k = 0; k < sc.fetches; k++) {
      const sts = await fg.fetch();
      fetches.push({
        sts,
        outs: outs.map(([r, h]) => {
          if (r.kind === 'item') return { sts: (h as ItemOutput).status, value: enc((h as ItemOutput).value, r.type) };
          if (r.kind === 'indom') {
            const o = h as IndomOutput;
            return { sts: o.status, num: o.num, codes: [...o.codes], names: [...o.names], stss: [...o.statuses], values: o.values.map((v) => enc(v, r.type)) };
          }
          if (r.kind === 'event') {
            const o = h as EventOutput;
            return { sts: o.status, num: o.num, times: o.times.slice(0, o.num).map((t) => [t.sec, t.nsec]), stss: [...o.statuses].slice(0, o.num), values: o.values.slice(0, o.num).map((v) => enc(v, r.type)) };
          }
          const t = (h as TimestampOutput).value;
          return { sec: t.sec, nsec: t.nsec };
        }),
      });
    }
    return { extend, fetches };
  } finally {
    await fg.destroy();
  }
}

/** libpcp's transcript of the same scenario (plus `register` statuses when it has derived metrics). */
export async function runOracle(sc: FetchGroupScenario, env?: Record<string, string>): Promise<FetchGroupTranscript> {
  const run = await runTool(PYTHON, [join(import.meta.dirname, 'oracle', 'fetchgroup.py')], { input: JSON.stringify(sc), env: env ?? sc.env });
  if (run.status !== 0) throw new Error(`fetchgroup.py exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as FetchGroupTranscript;
}

/** Floats ("f:" + repr or String) as numbers, so both spellings compare as doubles. */
function canon(x: unknown): unknown {
  if (typeof x === 'string' && x.startsWith('f:')) return x === 'f:nan' ? 'NaN' : Number(x.slice(2).replace(/^inf$/, 'Infinity').replace(/^-inf$/, '-Infinity'));
  if (Array.isArray(x)) return x.map(canon);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, canon(v)]));
  return x;
}

/** A transcript ready to compare: floats canonical; a failed fetch's wall-clock stand-in time masked. */
export function comparable(x: unknown): unknown {
  const t = canon(x) as { fetches: { sts: number; outs: unknown[] }[] };
  return { ...t, fetches: t.fetches.map((f) => (f.sts < 0 ? { ...f, outs: f.outs.map((o) => (o && typeof o === 'object' && 'nsec' in o ? 'time' : o)) } : f)) };
}
