// Resolves a chart's plots against a Context: metric name → pmid and descriptor, instance
// selector → the instance columns to return. The first step of every fetchSeries; errors stay
// per plot so one bad metric does not blank a chart (docs/design.md "Errors").
import type { Context } from '../pcp-core/context/context';
import { PM_ERR_CONV, PM_ERR_NAME, PmError, pmErrStr } from '../pcp-core/errors';
import { isNumericType, PM_INDOM_NULL, PM_SEM_COUNTER, type Desc, type PmId } from '../pcp-core/types';
import { toEngineError } from './engine-error';
import { instancePredicate } from './instance-pattern';
import type { EngineError, PlotRequest } from './engine-types';

export interface ResolvedColumn {
  readonly instId: number;
  readonly instName: string;
}

export type ResolvedPlot =
  | { readonly ok: true; readonly metric: string; readonly pmid: PmId; readonly desc: Desc; readonly columns: readonly ResolvedColumn[] }
  | { readonly ok: false; readonly metric: string; readonly error: EngineError };

/** A selector's instance-name predicate (instance-pattern.ts); a bad pattern is the plot's error. */
export { instancePredicate };

function failed(metric: string, e: unknown): ResolvedPlot {
  return { ok: false, metric, error: toEngineError(e, metric) };
}

/** Registers a derived expression in the context: its metric name, or why it was refused. */
export type ExpressionDefiner = (expr: string) => Promise<{ readonly name: string } | { readonly error: EngineError }>;

/**
 * Resolves every plot; never throws for a plot's own problem. Plots with an expression are
 * defined through `define` first and then resolved by the derived metric's name.
 */
export async function resolvePlots(ctx: Context, plots: readonly PlotRequest[], define?: ExpressionDefiner): Promise<ResolvedPlot[]> {
  const exprErrors = new Map<number, EngineError>();
  const names: string[] = [];
  for (const [i, p] of plots.entries()) {
    if (p.expr === undefined) {
      names.push(p.metric);
      continue;
    }
    const d = define ? await define(p.expr) : { error: toEngineError(new PmError(PM_ERR_CONV, 'derived metrics are not available here', p.expr)) };
    if ('error' in d) exprErrors.set(i, d.error);
    names.push('error' in d ? p.metric : d.name);
  }
  const ids = await ctx.lookupNames(names);
  const known = ids.filter((id): id is PmId => typeof id === 'number' && id >= 0);
  const descs = known.length ? await ctx.lookupDescs(known) : [];
  const descById = new Map<number, Desc | number>();
  known.forEach((id, i) => descById.set(id, descs[i] ?? PM_ERR_NAME));

  const out: ResolvedPlot[] = [];
  for (const [i, plot] of plots.entries()) {
    const id = ids[i];
    const exprError = exprErrors.get(i);
    if (exprError) {
      out.push({ ok: false, metric: plot.metric, error: exprError });
      continue;
    }
    if (id === undefined || id < 0) {
      out.push(failed(plot.metric, new PmError(typeof id === 'number' ? id : PM_ERR_NAME, pmErrStr(typeof id === 'number' ? id : PM_ERR_NAME), plot.metric)));
      continue;
    }
    const desc = descById.get(id);
    if (desc === undefined || typeof desc === 'number') {
      out.push(failed(plot.metric, new PmError(typeof desc === 'number' ? desc : PM_ERR_NAME, undefined, plot.metric)));
      continue;
    }
    if (!isNumericType(desc.type)) {
      out.push(failed(plot.metric, new PmError(PM_ERR_CONV, 'metric does not have a numeric type', plot.metric)));
      continue;
    }
    let columns: ResolvedColumn[];
    try {
      if (desc.indom === PM_INDOM_NULL) {
        columns = [{ instId: -1, instName: '' }];
      } else {
        const keep = instancePredicate(plot.instances);
        const list = await ctx.getInDom(desc.indom);
        columns = [];
        list.names.forEach((name, k) => {
          if (keep(name)) columns.push({ instId: list.instances[k] ?? -1, instName: name });
        });
      }
    } catch (e) {
      out.push(failed(plot.metric, e));
      continue;
    }
    out.push({ ok: true, metric: plot.metric, pmid: id as PmId, desc, columns });
  }
  return out;
}

export function isCounter(desc: Desc): boolean {
  return desc.sem === PM_SEM_COUNTER;
}
