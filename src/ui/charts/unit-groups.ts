// Which y axis each plot of a chart is drawn on. pmchart allows only plots whose units have
// the same space, time and count dimensions after rate conversion in one chart (§1a "Unit
// compatibility", sampling.cpp isCompatible); pmdash keeps that rule per axis: the units of
// the first plot own the left axis, the first plot with other dimensions opens a right axis,
// and a plot of a third kind is refused with a message naming both axes' units — never
// drawn against a scale that is not its own.
import type { ColumnUnits } from '../../workers/engine-types';

/** The two axes: 0 left, 1 right. */
export type AxisIndex = 0 | 1;

/** pmchart's compatibility: equal dimensions (scales may differ; the axis rescales). */
export function compatibleUnits(a: ColumnUnits, b: ColumnUnits): boolean {
  return a.units.dimSpace === b.units.dimSpace && a.units.dimTime === b.units.dimTime && a.units.dimCount === b.units.dimCount;
}

/** Units as a person reads them: pmUnitsStr, "time utilization", or "none". */
export function unitsName(u: ColumnUnits): string {
  return u.utilization ? 'time utilization' : u.text || 'none';
}

export interface AxisAssignment {
  /** Per plot: its axis, or undefined for a plot refused (third units) or with no units known. */
  readonly axes: readonly (AxisIndex | undefined)[];
  /** The units owning each axis (length 0, 1 or 2). */
  readonly groups: readonly ColumnUnits[];
  /** Indexes of plots whose units fit neither axis. */
  readonly refused: readonly number[];
}

/** Assigns plots (their units in chart order; undefined = unknown, e.g. a failed plot) to axes. */
export function assignAxes(units: readonly (ColumnUnits | undefined)[]): AxisAssignment {
  const groups: ColumnUnits[] = [];
  const refused: number[] = [];
  const axes = units.map((u, i): AxisIndex | undefined => {
    if (!u) return undefined;
    const k = groups.findIndex((g) => compatibleUnits(g, u));
    if (k === 0 || k === 1) return k;
    if (groups.length < 2) {
      groups.push(u);
      return groups.length === 1 ? 0 : 1;
    }
    refused.push(i);
    return undefined;
  });
  return { axes, groups, refused };
}

/** Why a plot cannot join a chart whose two axes are taken. */
export function refusalText(metric: string, u: ColumnUnits, groups: readonly ColumnUnits[]): string {
  const [left, right] = groups;
  const axes = left && right ? `${unitsName(left)} (left axis) nor ${unitsName(right)} (right axis)` : left ? unitsName(left) : '';
  return `${metric} not added: its units, ${unitsName(u)}, are compatible with neither ${axes}; a chart has at most two kinds of units — put it in a chart of its own.`;
}
