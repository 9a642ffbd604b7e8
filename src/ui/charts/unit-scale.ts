// Axis units with pmchart's automatic rescaling (docs/pmchart-reference.md §1d D7), but
// always labelled: byte units step through Kbyte … Ebyte (×1024) and time units through
// nanosec … hour so the axis top stays below 1000; count units are never rescaled. The
// factor divides raw values; the label is the new units text.
import type { Units } from '../../pcp-core/types';

const SPACE = ['byte', 'Kbyte', 'Mbyte', 'Gbyte', 'Tbyte', 'Pbyte', 'Ebyte'];
const TIME = ['nanosec', 'microsec', 'millisec', 'sec', 'min', 'hour'];
const TIME_NS = [1, 1e3, 1e6, 1e9, 60e9, 3600e9];

export interface AxisScale {
  /** Divide raw values by this. */
  readonly factor: number;
  /** Units text after rescaling ('' when dimensionless). */
  readonly label: string;
}

function unitsText(u: Units, scaleSpace: number, scaleTime: number): string {
  const num: string[] = [];
  const den: string[] = [];
  const put = (dim: number, name: string): void => {
    const p = Math.abs(dim);
    const t = p === 1 ? name : `${name}^${p}`;
    if (dim > 0) num.push(t);
    else if (dim < 0) den.push(t);
  };
  put(u.dimSpace, SPACE[scaleSpace] ?? 'byte');
  put(u.dimTime, TIME[scaleTime] ?? 'sec');
  if (u.dimCount !== 0) put(u.dimCount, u.scaleCount === 0 ? 'count' : `count x 10^${u.scaleCount}`);
  if (!num.length && !den.length) return '';
  return den.length ? `${num.length ? num.join(' ') : '1'} / ${den.join(' ')}` : num.join(' ');
}

/** Chooses the display scale for values whose largest magnitude is `maxAbs`. */
export function axisScale(u: Units, maxAbs: number, utilization = false): AxisScale {
  if (utilization) return { factor: 1, label: 'time utilization' };
  let scaleSpace = u.scaleSpace;
  let scaleTime = u.scaleTime;
  let factor = 1;
  const top = Number.isFinite(maxAbs) ? maxAbs : 0;
  if (u.dimSpace === 1 && top > 0) {
    // Up while ≥ 1000 of the current unit, down while < 0.1 (pmchart's thresholds).
    while (top / factor >= 1000 && scaleSpace < SPACE.length - 1) {
      scaleSpace++;
      factor *= 1024;
    }
    while (top / factor < 0.1 && scaleSpace > 0) {
      scaleSpace--;
      factor /= 1024;
    }
  } else if (u.dimTime === 1 && u.dimSpace === 0 && top > 0) {
    const base = TIME_NS[scaleTime] ?? 1;
    while (scaleTime < TIME.length - 1 && (top * base) / (TIME_NS[scaleTime] ?? 1) >= 1000 && (top * base) / (TIME_NS[scaleTime + 1] ?? 1) >= 1) scaleTime++;
    while (scaleTime > 0 && (top * base) / (TIME_NS[scaleTime] ?? 1) < 0.1) scaleTime--;
    factor = (TIME_NS[scaleTime] ?? 1) / base;
  }
  return { factor, label: unitsText(u, scaleSpace, scaleTime) };
}

/** Formats a value for tooltips and the legend: up to 4 significant digits, no exponent below 1e15. */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return '—';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1e15 || a < 1e-4) return v.toExponential(3);
  if (a >= 1000) return v.toFixed(a >= 1e5 ? 0 : 1).replace(/\.0$/, '');
  return Number(v.toPrecision(4)).toString();
}
