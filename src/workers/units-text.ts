// Units as text and the unit changes of rate conversion, for the series the worker returns.
// Text follows pmUnitsStr's spelling ("Kbyte / sec", "count x 10^3", "millisec"); rate
// conversion follows pmval (docs/pmchart-reference.md §1d D1–D2): a counter gains "/ sec",
// and a counter of time becomes a time utilization (seconds per second, dimensionless).
import type { Units } from '../pcp-core/types';

const SPACE = ['byte', 'Kbyte', 'Mbyte', 'Gbyte', 'Tbyte', 'Pbyte', 'Ebyte', 'Zbyte', 'Ybyte'];
const TIME = ['nanosec', 'microsec', 'millisec', 'sec', 'min', 'hour'];
/** Seconds per unit of each PM_TIME_* scale. */
export const TIME_SCALE_SEC = [1e-9, 1e-6, 1e-3, 1, 60, 3600];
export const PM_TIME_SEC = 3;

function term(name: string, dim: number): string {
  const p = Math.abs(dim);
  return p === 1 ? name : `${name}^${p}`;
}

/** pmUnitsStr-like text; '' for dimensionless units. */
export function formatUnits(u: Units): string {
  const num: string[] = [];
  const den: string[] = [];
  const put = (dim: number, name: string): void => {
    if (dim > 0) num.push(term(name, dim));
    else if (dim < 0) den.push(term(name, dim));
  };
  put(u.dimSpace, SPACE[u.scaleSpace] ?? `space-scale-${u.scaleSpace}`);
  put(u.dimTime, TIME[u.scaleTime] ?? `time-scale-${u.scaleTime}`);
  if (u.dimCount !== 0) {
    const name = u.scaleCount === 0 ? 'count' : `count x 10^${u.scaleCount}`;
    put(u.dimCount, name);
  }
  if (num.length === 0 && den.length === 0) return '';
  const top = num.length ? num.join(' ') : '1';
  return den.length ? `${top} / ${den.join(' ')}` : top;
}

/** How one counter's raw delta becomes the plotted rate. */
export interface RateConversion {
  readonly units: Units;
  /** Multiply delta ÷ Δt(seconds) by this. */
  readonly factor: number;
  readonly utilization: boolean;
}

/** The unit change of rate-converting a counter with units `u`. */
export function rateConversion(u: Units): RateConversion {
  if (u.dimTime === 1 && u.dimSpace === 0 && u.dimCount === 0) {
    // Time per second is a utilization: pmval divides by the time scale's seconds.
    return {
      units: { ...u, dimTime: 0, scaleTime: 0 },
      factor: TIME_SCALE_SEC[u.scaleTime] ?? 1,
      utilization: true,
    };
  }
  // Bring any existing time dimension to seconds, then divide by seconds.
  const toSec = u.dimTime === 0 ? 1 : Math.pow(TIME_SCALE_SEC[u.scaleTime] ?? 1, u.dimTime);
  return {
    units: { ...u, dimTime: u.dimTime - 1, scaleTime: PM_TIME_SEC },
    factor: toSec,
    utilization: false,
  };
}
