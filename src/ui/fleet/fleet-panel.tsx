// The Fleet panel (left sidebar): the hosts of the pmproxy store that `pmdash serve --pmproxy`
// forwards, with their labels, filterable; ticking hosts and "Open fleet tab" opens a fleet
// tab over them. It probes /pmproxy/series/ping once: without a pmproxy it shows nothing.
import { useEffect, useId } from 'react';
import { asEngineError, describeError, getEngine } from '../engine-client';
import { dash } from '../store';
import { FLEET_BASE_PATH, filterHosts, fleetState, labelTexts, setFleet, useFleet } from './fleet-state';
import './fleet.css';

/** The same-origin pmproxy prefix as an absolute URL (the worker's fetch needs one). */
export function fleetBase(): string {
  return `${location.origin}${FLEET_BASE_PATH}`;
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
    return;
  }
  setFleet({ available: true });
  await loadHosts();
}

/** Opens the fleet tab over the picked hosts; its window is the time bar's when it has one. */
export function openFleetTab(): void {
  const s = fleetState();
  if (s.picked.length === 0) return;
  const d = dash();
  const hasWindow = Number.isFinite(d.positionMs) && d.windowMs > 0;
  const finishMs = hasWindow ? d.positionMs : Math.floor(Date.now() / 1000) * 1000;
  const startMs = hasWindow ? d.positionMs - d.windowMs : finishMs - 3_600_000;
  setFleet({ tab: { hosts: [...s.picked], metric: s.tab?.metric ?? '', aggregate: s.tab?.aggregate ?? 'sum', startMs, finishMs } });
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
            <label>
              <input type="checkbox" checked={picked.includes(h.hostname)} onChange={() => toggle(h.hostname)} />
              <b>{h.hostname}</b>
            </label>
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
      <button type="button" data-testid="fleet-open" disabled={picked.length === 0} onClick={openFleetTab}>
        Open fleet tab{picked.length > 0 ? ` (${picked.length} host${picked.length > 1 ? 's' : ''})` : ''}
      </button>
    </div>
  );
}
