// The Fleet panel (left sidebar): the hosts of the pmproxy store that `pmdash serve --pmproxy`
// forwards, with their labels, filterable; ticking hosts and "Open fleet tab" opens a fleet
// tab over them. It probes /pmproxy/series/ping once: without a pmproxy it shows nothing.
import { useEffect, useId, useState } from 'react';
import { asEngineError, describeError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import { dash } from '../store';
import { DEFAULT_WINDOW_MS, loggingInterval } from '../state/time-slice';
import { addFragmentPart } from '../state/url-sync';
import { PMPROXY_BASE_PATH, openLiveViaPmproxy } from '../sources/open-sources';
import { DEFAULT_TOP_N, decodeFleetTab, encodeFleetTab, filterHosts, fleetState, labelTexts, setFleet, subscribeFleet, useFleet, type FleetTab } from './fleet-state';
import './fleet.css';

/** The fleet tab a shared link holds, read before anything rewrites the address. */
const linked = decodeFleetTab(location.hash);

// The open fleet tab lives in the page address next to the dashboard (`#dash=…&fleet=…`).
addFragmentPart({
  text: () => {
    const tab = fleetState().tab;
    return tab ? encodeFleetTab(tab) : undefined;
  },
  subscribe: (onChange) => {
    let last = fleetState().tab;
    return subscribeFleet(() => {
      if (fleetState().tab === last) return;
      last = fleetState().tab;
      onChange();
    });
  },
});

/** The same-origin pmproxy prefix as an absolute URL (the worker's fetch needs one). */
export function fleetBase(): string {
  return `${location.origin}${PMPROXY_BASE_PATH}`;
}

async function loadHosts(): Promise<void> {
  setFleet({ loading: true, error: undefined });
  try {
    const hosts = await getEngine().fleetHosts(fleetBase());
    setFleet((s) => ({ hosts, loading: false, picked: s.picked.filter((p) => hosts.some((h) => h.hostname === p)) }));
  } catch (e) {
    setFleet({ loading: false, error: asEngineError(e, 'fleet hosts') });
  }
}

async function probe(): Promise<void> {
  try {
    await getEngine().fleetPing(fleetBase());
  } catch {
    // No pmproxy behind this server (404) or it is down: the panel stays hidden; the
    // reason is not an error of the page (a plain `pmdash serve` has no fleet).
    setFleet({ available: false });
    if (linked) notify('warning', 'This link has a fleet tab, but this server forwards no pmproxy (pmdash serve --pmproxy URL).');
    return;
  }
  setFleet({ available: true });
  await loadHosts();
  if (linked instanceof Error) notify('warning', `Restoring the dashboard from the link: ${linked.message}`);
  // The link's own time (bounds, window, position in `dash=`) comes with the dashboard.
  else if (linked) {
    dash().heldTime(true);
    setFleet({ tab: linked, picked: [...linked.hosts] });
  }
}

/**
 * Puts the time bar on the stored history [startMs, endMs]: its bounds become that history
 * (padded by two logging intervals of the archive in view, so the time bar's grid never cuts
 * off the first or last stored sample) and the window shows its newest hour.
 */
function showHistory(startMs: number, endMs: number): void {
  const d = dash();
  const pad = Math.max(2000, 2 * loggingInterval(d.sources, d.currentSourceId), (endMs - startMs) * 0.02);
  const b = { startMs: startMs - pad, endMs: endMs + pad };
  d.narrowedBounds(b.startMs, b.endMs);
  const w = Math.min(DEFAULT_WINDOW_MS, b.endMs - b.startMs);
  d.showedRange(b.endMs - w, b.endMs);
}

/** Opens the fleet tab over `hosts` (the picked ones) and moves the time bar onto their stored history. */
export async function openFleetTab(hosts: readonly string[] = fleetState().picked, drill?: string): Promise<void> {
  if (hosts.length === 0) return;
  const s = fleetState();
  const tab: FleetTab = { hosts: [...hosts], metric: s.tab?.metric ?? '', aggregate: s.tab?.aggregate ?? 'sum', topN: s.tab?.topN ?? DEFAULT_TOP_N, ...(drill !== undefined && { drill }) };
  // The time bar moves first, so the tab's first query is already over the stored history,
  // and stays there while the tab shows, whatever opens meanwhile.
  dash().heldTime(true);
  try {
    const span = await getEngine().fleetSpan(fleetBase(), hosts);
    if (span) showHistory(span.startMs, span.endMs);
    else notify('warning', `The store holds no samples of ${hosts.join(', ')}.`);
  } catch (e) {
    notify('error', describeError(asEngineError(e, `history of ${hosts.join(', ')}`)));
  }
  setFleet({ tab });
}

/** Closes the fleet tab; the time bar's bounds go back to the archives'. */
export function closeFleetTab(): void {
  setFleet({ tab: undefined });
  dash().heldTime(false);
  dash().resetBounds();
  dash().archiveBoundsChanged();
}

/** "Live via pmproxy": a host pmproxy can reach, charted live through its /pmapi (no bridge). */
function LiveViaPmproxy() {
  const [host, setHost] = useState('localhost');
  const id = useId();
  return (
    <form className="fleet-live" onSubmit={(e) => { e.preventDefault(); if (host.trim() !== '') void openLiveViaPmproxy(host.trim()); }}>
      <label htmlFor={id} className="fleet-label">Live via pmproxy (/pmapi): a host pmproxy can reach</label>
      <div className="fleet-live-row">
        <input id={id} type="text" data-testid="pmapi-host" placeholder="host name" value={host} onChange={(e) => setHost(e.target.value)} />
        <button type="submit" data-testid="pmapi-connect">Live via pmproxy</button>
      </div>
    </form>
  );
}

export function FleetPanel() {
  const available = useFleet((s) => s.available);
  const hosts = useFleet((s) => s.hosts);
  const filter = useFleet((s) => s.filter);
  const picked = useFleet((s) => s.picked);
  const loading = useFleet((s) => s.loading);
  const error = useFleet((s) => s.error);
  const filterId = useId();

  useEffect(() => {
    if (fleetState().available === undefined) void probe();
  }, []);

  if (!available) return null;
  const shown = filterHosts(hosts, filter);
  const toggle = (h: string): void => setFleet((s) => ({ picked: s.picked.includes(h) ? s.picked.filter((p) => p !== h) : [...s.picked, h] }));

  return (
    <div className="fleet-panel" data-testid="fleet-panel">
      <div className="panel-title">
        <span>Fleet (pmproxy store)</span>
        <button type="button" className="small" title="Read the host list again" onClick={() => void loadHosts()}>↻</button>
      </div>
      <label htmlFor={filterId} className="fleet-label">Filter hosts by name or label</label>
      <input id={filterId} type="search" className="fleet-filter" data-testid="fleet-filter" placeholder="e.g. vm machineid:…" value={filter} onChange={(e) => setFleet({ filter: e.target.value })} />
      {loading && <div className="muted">Reading hosts…</div>}
      {error && <div className="fleet-error" role="alert">{describeError(error)}</div>}
      <ul className="fleet-hosts">
        {shown.map((h) => (
          <li key={h.hostname} className="fleet-host" data-testid="fleet-host" data-host={h.hostname}>
            <div className="fleet-host-head">
              <label>
                <input type="checkbox" checked={picked.includes(h.hostname)} onChange={() => toggle(h.hostname)} />
                <b>{h.hostname}</b>
              </label>
              <button type="button" className="small" data-testid="fleet-drill" title={`${h.hostname}'s Overview from the store`} onClick={() => void openFleetTab([h.hostname], h.hostname)}>Overview</button>
            </div>
            <div className="fleet-labels">
              {labelTexts(h).map((t) => (
                <span key={t} className="fleet-chip" title={t}>{t}</span>
              ))}
            </div>
            {h.sources.length > 0 && (
              <div className="fleet-sources muted" title={h.sources.flatMap((x) => x.names).join('\n')}>
                from {h.sources.flatMap((x) => x.names).filter((n) => n !== h.hostname).join(', ') || h.hostname}
              </div>
            )}
          </li>
        ))}
      </ul>
      {!loading && shown.length === 0 && <div className="muted">{hosts.length === 0 ? 'The store has no hosts yet (pmseries --load an archive).' : 'No host matches the filter.'}</div>}
      <button type="button" data-testid="fleet-open" disabled={picked.length === 0} onClick={() => void openFleetTab()}>
        Open fleet tab{picked.length > 0 ? ` (${picked.length} host${picked.length > 1 ? 's' : ''})` : ''}
      </button>
      <LiveViaPmproxy />
    </div>
  );
}
