// Runs one script of pmSetMode / pmFetch / pmFetchArchive / pmGetArchiveEnd / profile steps
// through libpcp (test/oracle/replay-fetch.py) and through pmdash's replay, and returns both
// transcripts in one comparable shape. Used by the replay and archive-context conformance
// tests, on fixture archives and QA archives alike.
import type { AtomValue, PmId, Result, Timestamp } from '../src/pcp-core/types';
import { isPmError } from '../src/pcp-core/errors';
import { runTool, PYTHON } from './oracle';
import { join } from 'node:path';

export type ReplayStep =
  | { readonly setMode: { readonly mode: 'interp' | 'forw' | 'back'; readonly origin: readonly [number, number] | null; readonly delta?: readonly [number, number]; readonly timeval?: boolean } }
  | { readonly fetch: number }
  | { readonly fetchArchive: number }
  | { readonly end: true }
  | { readonly profile: { readonly op: 'add' | 'del'; readonly metric: string | null; readonly insts?: readonly number[] } };

export interface FetchRecord {
  readonly sec?: number;
  readonly nsec?: number;
  readonly error?: number;
  readonly sets?: { readonly pmid: number; readonly numval: number; readonly values: [number, string][] }[];
}

export type StepOutput = null | number | FetchRecord[] | { sec?: number; nsec?: number; error?: number };

export interface Transcript {
  readonly pmids: number[];
  readonly out: StepOutput[];
}

/** libpcp's transcript for the script, with extra environment (PCP_COUNTER_WRAP, ...). */
export async function libpcpTranscript(archive: string, metrics: readonly string[], steps: readonly ReplayStep[], env: NodeJS.ProcessEnv = {}): Promise<Transcript> {
  const run = await runTool(PYTHON, [join(import.meta.dirname, 'oracle', 'replay-fetch.py')], {
    input: JSON.stringify({ archive, metrics, steps }),
    env,
  });
  if (run.status !== 0) throw new Error(`replay-fetch.py exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Transcript;
}

/** The replay operations a transcript needs: a ReplaySession or an ArchiveContext adapter. */
export interface ReplayDriver {
  setMode(mode: number, origin: Timestamp | undefined, deltaNs: bigint): Promise<void>;
  fetch(pmids: readonly PmId[]): Promise<Result>;
  fetchArchive(): Promise<Result>;
  archiveEnd(): Promise<Timestamp>;
  profile(op: 'add' | 'del', metric: string | null, insts: readonly number[]): Promise<void>;
  /** Whether the metric's type is FLOAT or DOUBLE (python prints those with repr). */
  isFloat(pmid: number): boolean;
}

const MODES = { interp: 1, forw: 2, back: 3 } as const;

function valueText(v: AtomValue, float: boolean): string {
  if (typeof v === 'number') return float ? `f:${v}` : String(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return `hex:${Buffer.from(v).toString('hex')}`;
  return '<event>';
}

function record(r: Result, isFloat: (pmid: number) => boolean): FetchRecord {
  return {
    sec: r.timestamp.sec,
    nsec: r.timestamp.nsec,
    sets: r.sets.map((s) => ({ pmid: s.pmid, numval: s.numval, values: Array.from(s.inst, (inst, i) => [inst, valueText(s.values[i], isFloat(s.pmid))] as [number, string]) })),
  };
}

async function attempt(f: () => Promise<Result>, isFloat: (pmid: number) => boolean): Promise<FetchRecord> {
  try {
    return record(await f(), isFloat);
  } catch (e) {
    if (isPmError(e)) return { error: e.code };
    throw e;
  }
}

/** pmdash's transcript for the same script. */
export async function pmdashTranscript(driver: ReplayDriver, pmids: readonly PmId[], steps: readonly ReplayStep[]): Promise<Transcript> {
  const out: StepOutput[] = [];
  for (const step of steps) {
    if ('setMode' in step) {
      const s = step.setMode;
      const d = s.delta ?? [0, 0];
      let deltaNs = BigInt(d[0]) * 1_000_000_000n + BigInt(d[1]);
      let origin = s.origin ? { sec: s.origin[0], nsec: s.origin[1] } : undefined;
      if (s.timeval) {
        // pmSetMode: a timeval origin (µs) and a whole number of milliseconds.
        if (origin) origin = { sec: origin.sec, nsec: Math.floor(origin.nsec / 1000) * 1000 };
        deltaNs = (deltaNs / 1_000_000n) * 1_000_000n;
      }
      await driver.setMode(MODES[s.mode], origin, deltaNs);
      out.push(null);
    } else if ('fetch' in step) {
      const res: FetchRecord[] = [];
      for (let i = 0; i < step.fetch; i++) res.push(await attempt(() => driver.fetch(pmids), (p) => driver.isFloat(p)));
      out.push(res);
    } else if ('fetchArchive' in step) {
      const res: FetchRecord[] = [];
      for (let i = 0; i < step.fetchArchive; i++) res.push(await attempt(() => driver.fetchArchive(), (p) => driver.isFloat(p)));
      out.push(res);
    } else if ('end' in step) {
      try {
        const t = await driver.archiveEnd();
        out.push({ sec: t.sec, nsec: t.nsec });
      } catch (e) {
        if (!isPmError(e)) throw e;
        out.push({ error: e.code });
      }
    } else {
      await driver.profile(step.profile.op, step.profile.metric, step.profile.insts ?? []);
      out.push(0);
    }
  }
  return { pmids: [...pmids], out };
}

/** Floats ("f:" + repr or String) become numbers so both spellings compare as doubles. */
function canonicalValue(v: string): unknown {
  if (!v.startsWith('f:')) return v;
  const t = v.slice(2);
  const special: Record<string, number> = { inf: Infinity, '-inf': -Infinity, nan: NaN, Infinity: Infinity, '-Infinity': -Infinity, NaN: NaN };
  return t in special ? special[t] : Number(t);
}

/**
 * libpcp 6.0.3 normalises an advanced origin with `nsec > 1e9`, so a result may carry
 * nsec = 1e9 exactly; pmdash normalises fully (docs/deviations.md). Same instant either way.
 */
function normalTime<T extends { sec?: number; nsec?: number }>(f: T): T {
  if (f.sec === undefined || f.nsec === undefined || f.nsec < 1e9) return f;
  return { ...f, sec: f.sec + 1, nsec: f.nsec - 1e9 };
}

/** A transcript in a form toEqual compares exactly. */
export function canonical(t: Transcript): unknown {
  return t.out.map((o) =>
    Array.isArray(o)
      ? o.map((f) => normalTime(f.sets ? { ...f, sets: f.sets.map((s) => ({ ...s, values: s.values.map(([i, v]) => [i, canonicalValue(v)]) })) } : f))
      : o,
  );
}
