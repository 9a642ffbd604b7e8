// pmseries query texts (pmseries(1) "TIMESERIES QUERIES") built from checked parts. Metric
// patterns and label values come from users and URLs, so they are checked against what the
// query language can carry, never pasted in as they are.
//
// pmproxy 6.0.3 facts this relies on (found on this machine, see README.md):
// - a time spec with `samples`/`count` or `interval` under any function (rate, *_sample, …)
//   kills pmproxy; so does rate() of a metric that is not a counter. Functions here get only
//   `start` and `finish`, and rate() only counters;
// - across instances, per sample, aggregate the `*_sample` functions (sum_sample, avg_sample,
//   max_sample, min_sample, topk_sample); the `*_inst` ones aggregate each instance over time.
import { EINVAL, PmError } from '../errors';

/** How a chart folds a metric's instances into one line per host, or picks the top N. */
export type Aggregate = 'none' | 'sum' | 'avg' | 'max' | 'min' | { readonly topk: number };

/** A time window in seconds since the epoch; `intervalSec` asks pmproxy to subsample. */
export interface TimeSpec {
  readonly startSec: number;
  readonly finishSec: number;
  readonly intervalSec?: number;
}

/** Metric names and pmseries globs: PMNS name characters plus `*` and `?`. */
const METRIC_PATTERN = /^[A-Za-z_*?][A-Za-z0-9_.*?]*$/;

export function checkMetricPattern(text: string): string {
  if (!METRIC_PATTERN.test(text) || text.length > 1024) throw new PmError(EINVAL, `bad metric name or pattern '${text}'`, 'fleet');
  return text;
}

/** A label value as a double-quoted pmseries string; quotes, backslashes and controls are refused. */
export function quoteLabelValue(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is being refused
  if (/["\\\u0000-\u001f\u007f]/.test(value) || value.length > 1024) throw new PmError(EINVAL, `label value '${value}' cannot be put in a pmseries query`, 'fleet');
  return `"${value}"`;
}

/** Seconds with at most microsecond digits and no exponent: what pmParseTimeWindow takes. */
export function formatSeconds(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) throw new PmError(EINVAL, `bad time ${sec}`, 'fleet');
  return sec.toFixed(6).replace(/\.?0+$/, '');
}

export function formatTimeSpec(t: TimeSpec): string {
  const parts = [`start:${formatSeconds(t.startSec)}`, `finish:${formatSeconds(t.finishSec)}`];
  if (t.intervalSec !== undefined) parts.push(`interval:${formatSeconds(t.intervalSec)}`);
  return `[${parts.join(',')}]`;
}

/** `metric{hostname:"H"}` without a time spec: the series of that metric on that host. */
export function hostSeriesExpr(metric: string, host?: string): string {
  return `${checkMetricPattern(metric)}${host !== undefined ? `{hostname:${quoteLabelValue(host)}}` : ''}`;
}

/** The pmproxy 6.0.3 function folding instances per sample. */
function aggregateFunction(a: Exclude<Aggregate, 'none'>): string {
  return typeof a === 'object' ? 'topk_sample' : `${a}_sample`;
}

/**
 * The expression for one host's line(s) over a window: the metric, through rate() when it is
 * a counter, folded by `aggregate`. A plain operand may be subsampled by pmproxy
 * (`intervalSec`); a function's operand never is (see the note at the top).
 */
export function chartExpr(metric: string, host: string, window: TimeSpec, counter: boolean, aggregate: Aggregate): string {
  const plain = !counter && aggregate === 'none';
  const operand = `${hostSeriesExpr(metric, host)}${formatTimeSpec(plain ? window : { startSec: window.startSec, finishSec: window.finishSec })}`;
  const rated = counter ? `rate(${operand})` : operand;
  if (aggregate === 'none') return rated;
  if (typeof aggregate === 'object' && (!Number.isInteger(aggregate.topk) || aggregate.topk < 1)) throw new PmError(EINVAL, `bad top-N count ${aggregate.topk}`, 'fleet');
  return typeof aggregate === 'object' ? `${aggregateFunction(aggregate)}(${rated},${aggregate.topk})` : `${aggregateFunction(aggregate)}(${rated})`;
}
