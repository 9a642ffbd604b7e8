// Adding plots to an existing chart (the metric browser's "Add to current chart", the chart
// editor's "Add expression") goes through here: the engine says the units each plot would
// be charted in (the chart's rate conversion included), and a plot whose units fit neither
// of the chart's two axes (unit-groups.ts) is refused with a notice naming its units and
// both axes' — as pmchart refuses it ("Units for this metric are not compatible"), never
// added silently to a scale that is not its own.
import type { ColumnUnits, PlotRequest } from '../../workers/engine-types';
import { asEngineError, describeError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import type { ChartSpec, PlotSpec } from '../state/model';
import { dash } from '../store';
import { assignAxes, refusalText } from './unit-groups';

type NewPlot = Omit<PlotSpec, 'id'>;

function request(p: NewPlot): PlotRequest {
  return p.expr !== undefined ? { metric: p.metric, expr: p.expr, instances: p.instances } : { metric: p.metric, instances: p.instances };
}

/** The charted units of each plot (chart order), undefined where unknown (failed, source not ready). */
async function unitsOf(plots: readonly NewPlot[], rate: boolean): Promise<(ColumnUnits | undefined)[]> {
  const sources = dash().sources;
  const out: (ColumnUnits | undefined)[] = plots.map(() => undefined);
  const bySource = new Map<string, number[]>();
  plots.forEach((p, i) => bySource.set(p.sourceId, [...(bySource.get(p.sourceId) ?? []), i]));
  for (const [sourceId, indexes] of bySource) {
    const src = sources.find((s) => s.id === sourceId && s.status === 'ready');
    if (src?.handle === undefined) continue;
    const answers = await getEngine().plotUnits(src.handle, indexes.map((i) => request(plots[i])), rate);
    answers.forEach((a, k) => {
      const i = indexes[k];
      if (i !== undefined && a.ok) out[i] = a.units;
    });
  }
  return out;
}

/**
 * Adds `plots` to a chart unless their units fit neither axis; returns the refusal (also
 * shown as a notice), or undefined when they were added.
 */
export async function addPlotsChecked(chart: ChartSpec, plots: readonly NewPlot[]): Promise<string | undefined> {
  let units: (ColumnUnits | undefined)[];
  try {
    units = await unitsOf([...chart.plots, ...plots], chart.rate);
  } catch (e) {
    const text = `Could not check the units of ${plots.map((p) => p.metric).join(', ')}: ${describeError(asEngineError(e))}`;
    notify('error', text);
    return text;
  }
  const { groups, refused } = assignAxes(units);
  const first = refused.find((i) => i >= chart.plots.length);
  if (first !== undefined) {
    const p = plots[first - chart.plots.length];
    const u = units[first];
    if (p && u) {
      const text = refusalText(p.metric, u, groups);
      notify('error', text);
      return text;
    }
  }
  dash().addedPlots(chart.id, plots);
  return undefined;
}
