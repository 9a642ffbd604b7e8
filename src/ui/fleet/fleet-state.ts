// The Fleet panel's state: whether `pmdash serve` proxies a pmproxy (probed once), the
// store's hosts, the filter and picks of the panel, and the open fleet tab (its hosts,
// metric, aggregation and window). A tiny external store (useSyncExternalStore) kept apart
// from the dashboard store: the fleet has no sources, contexts or replay of its own.
import { useSyncExternalStore } from 'react';
import type { FleetHost } from '../../pcp-core/fleet';
import type { EngineError } from '../../workers/engine-types';


/** Instances per host: folded at each sample, each instance, or the top N at each sample. */
export type FleetAggregate = 'sum' | 'avg' | 'max' | 'min' | 'none' | 'top';
const AGGREGATES: readonly FleetAggregate[] = ['sum', 'avg', 'max', 'min', 'none', 'top'];

/**
 * The fleet tab. Its window is the time bar's (the app's one time control); opening the tab
 * narrows the time bar's bounds to the hosts' stored history.
 */
export interface FleetTab {
  readonly hosts: readonly string[];
  readonly metric: string;
  readonly aggregate: FleetAggregate;
  /** N of 'top' (topk_sample): the N largest instances at each sample. */
  readonly topN: number;
  /** A host drilled into: its Overview from the store instead of the one-metric chart. */
  readonly drill?: string;
}

export const DEFAULT_TOP_N = 3;

export interface FleetState {
  /** undefined until probed; false when this server has no pmproxy (the panel stays out of the way). */
  readonly available?: boolean;
  readonly hosts: readonly FleetHost[];
  readonly loading: boolean;
  readonly error?: EngineError;
  readonly filter: string;
  readonly picked: readonly string[];
  /** The fleet tab, when open: the centre shows it instead of the chart tabs. */
  readonly tab?: FleetTab;
}

let state: FleetState = { hosts: [], loading: false, filter: '', picked: [] };
const listeners = new Set<() => void>();

export function fleetState(): FleetState {
  return state;
}

export function setFleet(patch: Partial<FleetState> | ((s: FleetState) => Partial<FleetState>)): void {
  state = { ...state, ...(typeof patch === 'function' ? patch(state) : patch) };
  for (const l of listeners) l();
}

export function subscribeFleet(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useFleet<T>(select: (s: FleetState) => T): T {
  return useSyncExternalStore(subscribeFleet, () => select(state));
}

/** Hosts whose name or any label (`name:value` text) contains every word of `filter`. */
export function filterHosts(hosts: readonly FleetHost[], filter: string): FleetHost[] {
  const words = filter.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return [...hosts];
  return hosts.filter((h) => {
    const text = [h.hostname, ...Object.entries(h.labels).map(([k, v]) => `${k}:${typeof v === 'string' ? v : JSON.stringify(v)}`)].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** `label:value` texts for display (hostname included: it is a label like the others). */
export function labelTexts(h: FleetHost): string[] {
  return Object.entries(h.labels).map(([k, v]) => `${k}:${typeof v === 'string' ? v : JSON.stringify(v)}`);
}

/** "YYYY-MM-DD HH:MM:SS" in UTC, the fleet tab's window text. */
export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Parses formatUtc's text (fractional seconds allowed); NaN when it is not that. */
export function parseUtc(text: string): number {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?\s*(?:Z|UTC)?\s*$/i.exec(text);
  if (!m) return NaN;
  const sec = m[6] !== undefined ? Number(m[6]) : 0;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), 0) + Math.round(sec * 1000);
  return Number.isFinite(ms) ? ms : NaN;
}

/** The fleet tab's key in the page address's fragment (next to url-state's `dash=`). */
export const FLEET_URL_KEY = 'fleet';

/** `fleet=…` for the address's fragment: the tab as JSON in base64url. */
export function encodeFleetTab(tab: FleetTab): string {
  const json = JSON.stringify({ h: tab.hosts, m: tab.metric, a: tab.aggregate, ...(tab.aggregate === 'top' && { n: tab.topN }), ...(tab.drill !== undefined && { d: tab.drill }) });
  let bin = '';
  for (const b of new TextEncoder().encode(json)) bin += String.fromCharCode(b);
  return `${FLEET_URL_KEY}=${btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/**
 * The fleet tab a fragment holds: undefined when it has none; an Error naming what is wrong
 * when it holds one that cannot be used (a link is outside input: every field is checked).
 */
export function decodeFleetTab(hash: string): FleetTab | Error | undefined {
  const text = new URLSearchParams(hash.replace(/^#/, '')).get(FLEET_URL_KEY);
  if (text === null) return undefined;
  let raw: unknown;
  try {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  } catch (e) {
    return new Error(`the fleet tab in this link cannot be read (${e instanceof Error ? e.message : String(e)})`);
  }
  if (typeof raw !== 'object' || raw === null) return new Error('the fleet tab in this link is not an object');
  const o = raw as Record<string, unknown>;
  const hosts = Array.isArray(o.h) ? o.h.filter((h): h is string => typeof h === 'string' && h !== '') : [];
  if (hosts.length === 0 || hosts.length > 10_000) return new Error('the fleet tab in this link names no hosts');
  const aggregate = AGGREGATES.find((a) => a === o.a) ?? 'sum';
  const n = typeof o.n === 'number' && Number.isInteger(o.n) && o.n >= 1 && o.n <= 1000 ? o.n : DEFAULT_TOP_N;
  const drill = typeof o.d === 'string' && hosts.includes(o.d) ? o.d : undefined;
  return { hosts, metric: typeof o.m === 'string' ? o.m : '', aggregate, topN: n, ...(drill !== undefined && { drill }) };
}
