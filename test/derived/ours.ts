// pmdash's side of a derived-metric oracle request (test/oracle/derived-values.py): the same
// registration, binding and fetch loop over DerivedContext + ArchiveContext, with results in
// the oracle's JSON shape (64-bit integers as strings) so the two can be compared directly.
import { DirFileSet } from '../../src/node/dir-file-set';
import { openLiveContext } from '../../src/node/open-live-context';
import { openArchiveContext } from '../../src/pcp-core/context/archive-context';
import { PM_MODE_FORW, PM_MODE_INTERP } from '../../src/pcp-core/context/context';
import { DerivedContext } from '../../src/pcp-core/derived/derived-context';
import { DerivedRegistry } from '../../src/pcp-core/derived/registry';
import { unitsText } from '../../src/pcp-core/derived/units-port';
import { PM_ERR_EOL } from '../../src/pcp-core/errors';
import type { PmId } from '../../src/pcp-core/types';

export interface Reply {
  readonly register: Array<{ status: number; message: string | null }>;
  readonly bind: Array<{ pmid: number | null; desc: { type: number; sem: number; indom: number; units: string } | null; error: number | null; stderr: string }>;
  readonly samples: Array<{ sec: number; usec: number; sets: Array<{ numval: number; inst: number[]; values: Array<number | string | null> }> }>;
}

export interface Request {
  readonly archive?: string;
  /** A live pmcd instead of an archive (mode 'live'). */
  readonly host?: string;
  readonly mode: 'forw' | 'interp' | 'live';
  readonly deltaMs: number;
  readonly samples: number;
  readonly metrics: ReadonlyArray<readonly [string, string]>;
  /** Register nothing: look the names up in the configuration already loaded. */
  readonly lookupOnly?: boolean;
}

/** `registry` given: the names are looked up in it as they are (the request's `lookupOnly`). */
export async function runOurs(req: Request, given?: DerivedRegistry): Promise<Reply> {
  const registry = given ?? new DerivedRegistry();
  const out: Reply = { register: [], bind: [], samples: [] };
  for (const [name, expr] of given ? [] : req.metrics) {
    const r = registry.registerMetric(name, expr);
    out.register.push(r.status === 0 ? { status: 0, message: null } : { status: r.status, message: r.message });
  }
  const inner = req.host !== undefined ? await openLiveContext(req.host) : await openArchiveContext(new DirFileSet('/'), req.archive ?? '');
  const messages: string[] = [];
  const ctx = new DerivedContext(inner, { registry, onMessage: (m) => messages.push(m) });
  const ids: PmId[] = [];
  for (const [name] of req.metrics) {
    const before = messages.length;
    const [id] = await ctx.lookupNames([name]);
    const entry: Reply['bind'][number] = { pmid: null, desc: null, error: null, stderr: '' };
    if (id !== undefined && id >= 0) {
      entry.pmid = id;
      const [d] = await ctx.lookupDescs([id as PmId]);
      if (typeof d === 'object') {
        entry.desc = { type: d.type, sem: d.sem, indom: d.indom, units: unitsText(d.units) };
        ids.push(id as PmId);
      } else entry.error = d ?? null;
    } else entry.error = id ?? null;
    entry.stderr = messages.slice(before).join('');
    out.bind.push(entry);
  }
  if (ids.length > 0) {
    const start = inner.source.kind === 'archive' ? inner.source.start : undefined;
    if (req.mode !== 'live') ctx.setMode(req.mode === 'interp' ? PM_MODE_INTERP : PM_MODE_FORW, start, BigInt(req.deltaMs) * 1_000_000n);
    for (let s = 0; s < req.samples; s++) {
      let r;
      try {
        r = await ctx.fetch(ids);
      } catch (e) {
        if ((e as { code?: number }).code === PM_ERR_EOL) break;
        throw e;
      }
      out.samples.push({
        sec: r.timestamp.sec,
        usec: Math.floor(r.timestamp.nsec / 1000),
        sets: r.sets.map((set) => ({
          numval: set.numval,
          inst: [...set.inst],
          values: set.values.map((v) => (typeof v === 'bigint' ? v.toString() : typeof v === 'number' || typeof v === 'string' ? v : null)),
        })),
      });
    }
  }
  await ctx.close();
  return out;
}
