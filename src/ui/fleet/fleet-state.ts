// The Fleet panel's state: whether `pmdash serve` proxies a pmproxy (probed once), the
// store's hosts, the filter and picks of the panel, and the open fleet tab (its hosts,
// metric, aggregation and window). A tiny external store (useSyncExternalStore) kept apart
// from the dashboard store: the fleet has no sources, contexts or replay of its own.
import { useSyncExternalStore } from 'react';
import type { FleetHost } from '../../pcp-core/fleet';
import type { EngineError } from '../../workers/engine-types';

/** `pmdash serve --pmproxy URL` forwards pmproxy's read endpoints here (same origin). */
export const FLEET_BASE_PATH = '/pmproxy';

export type FleetAggregate = 'sum' | 'avg' | 'max' | 'min' | 'none';

export interface FleetTab {
  readonly hosts: readonly string[];
  readonly metric: string;
  readonly aggregate: FleetAggregate;
  readonly startMs: number;
  readonly finishMs: number;
}

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

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useFleet<T>(select: (s: FleetState) => T): T {
  return useSyncExternalStore(subscribe, () => select(state));
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
