// Keeps the page address equal to the dashboard (issue 8) and rebuilds a dashboard from an
// address: url-state.ts is the codec, this module applies it. On start, `#dash=…` (validated
// by restoreSnapshot) lays out tabs and charts, reopens the archive URLs and live hosts in
// order, then sets zone, bounds, interval, window and position once the archives are known,
// so the link shows the same charts at the same time. Afterwards every change to layout,
// sources or time rewrites the fragment (replaceState, at most twice a second), and the most
// recent dashboards are remembered in local storage.
import { notify } from '../menu/notices';
import { bridgeUrlFor } from '../sources/bridge-url';
import { openLive, openUrl } from '../sources/open-sources';
import { dash, watchDash, type DashState } from '../store';
import { decodeFragment, encodeSnapshot, snapshotLayout, takeSnapshot, type DashSnapshot } from './url-state';

const SYNC_DELAY_MS = 500;
const RECENT_KEY = 'pmdash.recent';
const RECENT_MAX = 8;

/** A remembered dashboard: when, a title, and its fragment. */
export interface RecentDashboard {
  readonly savedMs: number;
  readonly title: string;
  readonly fragment: string;
}

export function recentDashboards(): RecentDashboard[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((r): r is RecentDashboard => typeof r === 'object' && r !== null && typeof (r as RecentDashboard).fragment === 'string' && typeof (r as RecentDashboard).title === 'string' && typeof (r as RecentDashboard).savedMs === 'number') : [];
  } catch {
    return [];
  }
}

/** The session's entry is replaced as the dashboard changes; older ones stay. */
const session = `${Date.now()}`;
function remember(fragment: string, title: string): void {
  try {
    const list = recentDashboards().filter((r) => !(r.savedMs >= Number(session) && r.title === title) && r.fragment !== fragment);
    list.unshift({ savedMs: Date.now(), title, fragment });
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, RECENT_MAX)));
  } catch {
    // Storage off or full: the address still carries the dashboard.
  }
}

/** The fragment for the dashboard as it is now. */
export function currentFragment(): string {
  return encodeSnapshot(takeSnapshot(dash()));
}

/** A link that reopens this dashboard. */
export function dashboardLink(): string {
  const url = new URL(location.href);
  url.hash = currentFragment();
  return url.href;
}

function titleOf(s: DashState): string {
  const names = [...new Set(s.sources.filter((x) => x.status === 'ready').map((x) => x.summary?.name ?? x.label))];
  const tab = s.tabs.find((t) => t.id === s.activeTabId)?.label ?? '';
  return `${names.join(', ') || 'no source'} — ${tab}`;
}

function write(): void {
  const fragment = currentFragment();
  if (location.hash !== `#${fragment}`) history.replaceState(history.state, '', `#${fragment}`);
  remember(fragment, titleOf(dash()));
}

/** Rewrites the fragment whenever what it holds changes. Returns the stop function. */
export function startUrlSync(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = watchDash((s, p) => {
    if (s.tabs === p.tabs && s.charts === p.charts && s.activeTabId === p.activeTabId && s.sources === p.sources && s.positionMs === p.positionMs && s.intervalMs === p.intervalMs && s.windowMs === p.windowMs && s.zone === p.zone && s.bounds === p.bounds && s.liveIntervalMs === p.liveIntervalMs && s.liveHistoryMs === p.liveHistoryMs) return;
    if (timer === undefined) timer = setTimeout(() => {
      timer = undefined;
      write();
    }, SYNC_DELAY_MS);
  });
  return () => {
    stop();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Sets the time controls as the snapshot had them, once its archives have opened. */
function applyTime(t: DashSnapshot['time']): void {
  const s = dash();
  s.changedZone(t.zone);
  if (t.liveIntervalMs !== undefined) s.changedLiveInterval(t.liveIntervalMs);
  if (t.liveHistoryMs !== undefined) s.changedLiveHistory(t.liveHistoryMs);
  if (t.bounds) s.narrowedBounds(t.bounds.startMs, t.bounds.endMs);
  if (t.intervalMs !== undefined) s.changedInterval(t.intervalMs);
  if (t.windowMs !== undefined) s.changedWindow(t.windowMs);
  if (t.positionMs !== undefined) s.movedPosition(t.positionMs);
}

/**
 * Restores the dashboard in the address, if any. Returns the promise of the restore (sources
 * opened and time set), or undefined when the address holds no dashboard (or a broken one,
 * which is reported) so the caller opens its defaults.
 */
export function restoreFromAddress(hash: string): Promise<void> | undefined {
  const r = decodeFragment(hash);
  if (!r) return undefined;
  if (!r.ok) {
    notify('error', `This link's dashboard could not be restored: ${r.error}`);
    return undefined;
  }
  const snap = r.snapshot;
  const warnings = [...r.warnings];
  // Sources open in order, so their ids follow the store's serial.
  let serial = dash().sourceSerial;
  const ids = snap.sources.map((s) => ('files' in s ? undefined : `s${++serial}`));
  snap.sources.forEach((s, i) => {
    if ('files' in s) warnings.push(`source ${i + 1} was opened from files on the sender's disk (${s.files.join(', ') || 'unknown'}): drop them here to see its charts`);
  });
  const layout = snapshotLayout(snap, ids);
  dash().replacedLayout(layout.tabs, layout.charts, layout.idSerial);
  dash().selectedTab(layout.activeTabId);
  const opens = snap.sources.flatMap((s) => ('url' in s ? [openUrl(s.url)] : 'host' in s ? [openLive(s.host, bridgeUrlFor(s.host))] : []));
  if (warnings.length > 0) notify('warning', `Restoring the dashboard from the link:\n${warnings.join('\n')}`);
  return Promise.all(opens).then(() => applyTime(snap.time));
}
