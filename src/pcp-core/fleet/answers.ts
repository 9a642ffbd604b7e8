// Checks the shape of each /series answer (PMWEBAPI(3), as pmproxy 6.0.3 writes it) before
// anything uses it: a hostile or broken peer gets an error naming the URL and the first bad
// element, never an object of the wrong shape deeper in the client.
import { EPROTO } from '../errors';
import type { Timestamp } from '../types';
import { FleetError } from './transport';

/** A series, source or instance identifier: a SHA-1 in 40 hex digits. */
const SHA1 = /^[0-9a-f]{40}$/;

export interface SeriesValue {
  /** The metric's (or the expression's) series id. */
  readonly series: string;
  /** The instance's series id; absent for a metric without instances ('' from functions is absent too). */
  readonly instance?: string;
  /** The sample's time, exact to the microsecond (see parseSeriesTimestamp). */
  readonly time: Timestamp;
  /** The same in milliseconds since the epoch, for charts (a double: sub-microsecond rounding). */
  readonly timestampMs: number;
  /** The value as pmproxy printed it (a number, or a string metric's text). */
  readonly value: string;
}

export interface SeriesDesc {
  readonly series: string;
  readonly source: string;
  /** `domain.cluster.item` */
  readonly pmid: string;
  /** `domain.serial`, or `none` */
  readonly indom: string;
  readonly semantics: string;
  readonly type: string;
  readonly units: string;
}

export interface SeriesInstance {
  readonly series: string;
  readonly source: string;
  /** The instance's own series id (what values carry as `instance`). */
  readonly instance: string;
  readonly id: number;
  readonly name: string;
}

export type Labels = Readonly<Record<string, unknown>>;

type Obj = Record<string, unknown>;

function fail(url: string, what: string): never {
  throw new FleetError(EPROTO, `unexpected answer: ${what}`, url);
}

function array(v: unknown, url: string, what: string): unknown[] {
  if (!Array.isArray(v)) fail(url, `expected a JSON array of ${what}`);
  return v;
}

function object(v: unknown, url: string, what: string, i: number): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(url, `element ${i} is not a ${what} object`);
  return v as Obj;
}

function str(o: Obj, key: string, url: string, i: number): string {
  const v = o[key];
  if (typeof v !== 'string') fail(url, `element ${i} has no string "${key}"`);
  return v;
}

function sha(o: Obj, key: string, url: string, i: number): string {
  const v = str(o, key, url, i);
  if (!SHA1.test(v)) fail(url, `element ${i}: "${key}" is not a series id`);
  return v;
}

export function decodeIds(v: unknown, url: string): string[] {
  return array(v, url, 'series ids').map((s, i) => {
    if (typeof s !== 'string' || !SHA1.test(s)) fail(url, `element ${i} is not a series id`);
    return s;
  });
}

export function decodeNames(v: unknown, url: string): string[] {
  return array(v, url, 'names').map((s, i) => {
    if (typeof s !== 'string') fail(url, `element ${i} is not a string`);
    return s;
  });
}

/**
 * A /series timestamp as pmproxy 6.0.3 prints it: the key-value store's stream id `MS-USEC`
 * with the '-' turned into '.', i.e. milliseconds, then the microseconds within that
 * millisecond as an unpadded integer: `1357328661336.63` is 336.063 ms past the second, not
 * 336.630 (libpcp_web query.c extract_time reads it back the same way). As a JSON number the
 * two would be one double, so values answers are read with their timestamps as text
 * (transport.ts `rawTimestamps`). More than 3 fraction digits are taken as a decimal fraction.
 */
export function parseSeriesTimestamp(text: string): Timestamp | undefined {
  const m = /^(\d{1,16})(?:\.(\d{1,9}))?$/.exec(text);
  if (!m?.[1]) return undefined;
  const ms = Number(m[1]);
  const frac = m[2] ?? '';
  const nsInMs = frac.length <= 3 ? Number(frac || '0') * 1000 : Number(frac.padEnd(9, '0').slice(0, 6));
  return { sec: Math.floor(ms / 1000), nsec: (ms % 1000) * 1_000_000 + nsInMs };
}

export function decodeValues(v: unknown, url: string): SeriesValue[] {
  return array(v, url, 'values').map((e, i) => {
    const o = object(e, url, 'value', i);
    const time = typeof o.timestamp === 'string' ? parseSeriesTimestamp(o.timestamp) : undefined;
    if (!time) fail(url, `element ${i} has no timestamp of the form MS[.USEC]`);
    const instance = o.instance;
    if (instance !== undefined && instance !== '' && (typeof instance !== 'string' || !SHA1.test(instance))) fail(url, `element ${i}: "instance" is not a series id`);
    return { series: sha(o, 'series', url, i), ...(typeof instance === 'string' && instance !== '' ? { instance } : {}), time, timestampMs: time.sec * 1000 + time.nsec / 1e6, value: str(o, 'value', url, i) };
  });
}

export function decodeDescs(v: unknown, url: string): SeriesDesc[] {
  return array(v, url, 'descriptors').map((e, i) => {
    const o = object(e, url, 'descriptor', i);
    return {
      series: sha(o, 'series', url, i),
      source: sha(o, 'source', url, i),
      pmid: str(o, 'pmid', url, i),
      indom: str(o, 'indom', url, i),
      semantics: str(o, 'semantics', url, i),
      type: str(o, 'type', url, i),
      units: str(o, 'units', url, i),
    };
  });
}

export function decodeInstances(v: unknown, url: string): SeriesInstance[] {
  return array(v, url, 'instances').map((e, i) => {
    const o = object(e, url, 'instance', i);
    const id = o.id;
    if (typeof id !== 'number' || !Number.isInteger(id)) fail(url, `element ${i} has no integer "id"`);
    return { series: sha(o, 'series', url, i), source: sha(o, 'source', url, i), instance: sha(o, 'instance', url, i), id, name: str(o, 'name', url, i) };
  });
}

export function decodeSeriesLabels(v: unknown, url: string): Array<{ series: string; labels: Labels }> {
  return array(v, url, 'label sets').map((e, i) => {
    const o = object(e, url, 'label set', i);
    const labels = o.labels;
    if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) fail(url, `element ${i} has no "labels" object`);
    return { series: sha(o, 'series', url, i), labels: labels as Labels };
  });
}

export function decodeLabelValues(v: unknown, url: string): Map<string, string[]> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(url, 'expected a JSON object of label values');
  const out = new Map<string, string[]>();
  for (const [name, values] of Object.entries(v as Obj)) {
    // Label values may be numbers or booleans in JSON; hosts are named by their text.
    out.set(name, array(values, url, `values of ${name}`).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
  }
  return out;
}

export function decodeSourceNames(v: unknown, url: string): Array<{ source: string; name: string }> {
  return array(v, url, 'source names').map((e, i) => {
    const o = object(e, url, 'source', i);
    return { source: sha(o, 'source', url, i), name: str(o, 'name', url, i) };
  });
}
