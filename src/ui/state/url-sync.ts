// Keeps the page address equal to the dashboard (issue 8) and rebuilds a dashboard from an
// address: url-state.ts is the codec, this module applies it. On start, `#dash=…` (validated
// by restoreSnapshot) lays out tabs and charts, reopens the archive URLs and live hosts in
// order, then sets zone, bounds, interval, window and position once the archives are known,
// so the link shows the same charts at the same time. Afterwards every change to layout,
// sources or time rewrites the fragment (replaceState, at most twice a second), and the most
// recent dashboards are remembered in local storage.
//
// Sources of a link that were dropped files cannot be reopened: the link waits for them, and
// when the recipient drops an archive of the same name and host, its plots bind to it and the
// link's tabs, charts and time come back (issue 13). pmchart's command line as page
// parameters (`?archive= ?host= ?view= ?S= ?T= ?O= ?t= ?Z= ?z`, page-params.ts) is applied
// here too, once what they name has opened.
import { asEngineError, describeError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import { bridgeUrlFor } from '../sources/bridge-url';
import { claimOpens, openLive, openLiveViaPmproxy, openUrl } from '../sources/open-sources';
import { dash, watchDash, type DashState } from '../store';
import { zoneTz } from '../time/zone';
import { loadStandardView, openViewText } from '../views/view-actions';
import type { ZoneChoice } from './model';
import { isViewUrl, type PageParams } from './page-params';
import { focusBounds } from './time-slice';
import { decodeFragment, encodeSnapshot, filesMatch, snapshotLayout, takeSnapshot, type DashSnapshot, type SnapshotSource } from './url-state';

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

/**
 * A part of the page address kept by another module (the fleet tab: `fleet=`), written after
 * `dash=` whenever it changes; `text()` is undefined when the part has nothing to say.
 */
export interface FragmentPart {
  text(): string | undefined;
  subscribe(onChange: () => void): () => void;
}

const parts: FragmentPart[] = [];
let partChanged: (() => void) | undefined;

export function addFragmentPart(part: FragmentPart): void {
  parts.push(part);
  part.subscribe(() => partChanged?.());
}

/** The fragment for the dashboard as it is now. */
export function currentFragment(): string {
  return [encodeSnapshot(takeSnapshot(dash())), ...parts.map((p) => p.text()).filter((t): t is string => t !== undefined)].join('&');
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
  const schedule = (): void => {
    if (timer === undefined) timer = setTimeout(() => {
      timer = undefined;
      write();
    }, SYNC_DELAY_MS);
  };
  const stop = watchDash((s, p) => {
    if (s.tabs === p.tabs && s.charts === p.charts && s.activeTabId === p.activeTabId && s.sources === p.sources && s.positionMs === p.positionMs && s.intervalMs === p.intervalMs && s.intervalFixed === p.intervalFixed && s.windowMs === p.windowMs && s.zone === p.zone && s.bounds === p.bounds && s.liveIntervalMs === p.liveIntervalMs && s.liveHistoryMs === p.liveHistoryMs) return;
    schedule();
  });
  partChanged = schedule;
  return () => {
    stop();
    partChanged = undefined;
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * Sets the time controls as the snapshot had them, once its archives have opened: the
 * window and position are clamped to the data, and an interval the sender did not fix
 * follows the window here too.
 */
function applyTime(t: DashSnapshot['time']): void {
  const s = dash();
  s.changedZone(t.zone);
  if (t.liveIntervalMs !== undefined) s.changedLiveInterval(t.liveIntervalMs);
  if (t.liveHistoryMs !== undefined) s.changedLiveHistory(t.liveHistoryMs);
  if (t.bounds) s.narrowedBounds(t.bounds.startMs, t.bounds.endMs);
  if (t.intervalMs !== undefined && t.intervalFixed !== false) s.changedInterval(t.intervalMs);
  else s.freedInterval();
  if (t.windowMs !== undefined) s.changedWindow(t.windowMs);
  if (t.positionMs !== undefined) s.movedPosition(t.positionMs);
}

type FilesSource = Extract<SnapshotSource, { files: readonly string[] }>;

/** A restored link still waiting for some of its dropped files. */
interface Pending {
  readonly snap: DashSnapshot;
  /** Store source id per snapshot source; undefined until opened or dropped. */
  readonly ids: (string | undefined)[];
  /** Store ids of the dropped archives bound so far: their opens are the link's to lay out. */
  readonly bound: Set<string>;
  stop: () => void;
}

let pending: Pending | undefined;

function describeFiles(f: FilesSource): string {
  const what = f.name ?? (f.files.join(', ') || 'unknown files');
  return f.hostname ? `${what} (host ${f.hostname})` : what;
}

/** Lays the link's tabs out over the sources bound so far and sets its time. */
function layOut(p: Pending): void {
  const layout = snapshotLayout(p.snap, p.ids, dash().idSerial);
  dash().replacedLayout(layout.tabs, layout.charts, layout.idSerial);
  dash().selectedTab(layout.activeTabId);
}

/** Binds newly opened dropped archives to the link's file sources they match. */
function bindDrops(p: Pending, s: DashState): void {
  let bound = false;
  for (const src of s.sources) {
    if (src.status !== 'ready' || src.origin.kind !== 'files' || !src.summary || p.ids.includes(src.id)) continue;
    const summary = src.summary;
    const names = src.origin.names;
    const at = p.snap.sources.findIndex((w, i) => p.ids[i] === undefined && 'files' in w && filesMatch(w, { name: summary.name, hostname: summary.hostname, files: names }));
    if (at < 0) continue;
    p.ids[at] = src.id;
    p.bound.add(src.id);
    const shift = p.snap.sources[at]?.shift;
    if (shift) dash().shiftedSource(src.id, shift);
    bound = true;
  }
  if (!bound) return;
  const done = p.snap.sources.every((w, i) => !('files' in w) || p.ids[i] !== undefined);
  if (done) {
    p.stop();
    pending = undefined;
  }
  // After the store has taken the new source's bounds (finishedOpening), not inside its update.
  setTimeout(() => {
    layOut(p);
    applyTime(p.snap.time);
    notify('info', done ? 'The link\'s dashboard is restored over the dropped archives.' : 'Dropped archive bound to the link; it still names other files.');
  }, 0);
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
  const waiting = snap.sources.filter((s): s is FilesSource => 'files' in s);
  if (waiting.length > 0) {
    warnings.push(`It was made with archives opened from files on the sender's disk. Drop ${waiting.map(describeFiles).join(' and ')} here to see its charts.`);
    const p: Pending = { snap, ids, bound: new Set(), stop: () => undefined };
    p.stop = watchDash((s, prev) => {
      if (s.sources !== prev.sources) bindDrops(p, s);
    });
    // The store tells the watch of a finished open before open-sources asks (same tick).
    const release = claimOpens((id) => {
      if (!p.bound.delete(id)) return false;
      if (pending !== p && p.bound.size === 0) release();
      return true;
    });
    pending?.stop();
    pending = p;
  }
  const layout = snapshotLayout(snap, ids);
  dash().replacedLayout(layout.tabs, layout.charts, layout.idSerial);
  dash().selectedTab(layout.activeTabId);
  const opens = snap.sources.flatMap((s) => ('url' in s ? [openUrl(s.url)] : 'host' in s ? [s.via === 'pmproxy' ? openLiveViaPmproxy(s.host) : openLive(s.host, bridgeUrlFor(s.host))] : []));
  if (warnings.length > 0) notify('warning', `Restoring the dashboard from the link:\n${warnings.join('\n')}`);
  return Promise.all(opens).then(() => {
    // Time shifts before the time: the link's position is in drawn (shifted) time.
    snap.sources.forEach((s, i) => {
      const id = ids[i];
      if (s.shift && id !== undefined) dash().shiftedSource(id, s.shift);
    });
    return applyTime(snap.time);
  });
}

/** The zone a `?Z=` / `?z` asks for. */
function zoneChoice(z: string): ZoneChoice {
  if (z === 'archive') return 'archive';
  if (/^(utc|gmt|utc0|:?etc\/utc)$/i.test(z)) return 'utc';
  return `tz:${z}`;
}

/** `?t=`, `?Z=`/`?z`, `?S=`/`?T=`/`?O=` against the archive in view, errors in libpcp's words. */
export async function applyTimeParams(p: PageParams): Promise<void> {
  if (p.zone !== undefined) dash().changedZone(zoneChoice(p.zone));
  const problems: string[] = [];
  try {
    if (p.interval !== undefined) {
      const r = await getEngine().parseInterval(p.interval);
      if (r.ok && r.ms > 0) dash().changedInterval(r.ms);
      else problems.push(`?t=${p.interval}: ${r.ok ? 'the interval must be more than zero' : r.message}`);
    }
    if (p.start !== undefined || p.finish !== undefined || p.origin !== undefined) {
      const s = dash();
      const b = focusBounds(s);
      if (!b) problems.push('?S= ?T= ?O= need an archive, and none opened');
      else {
        const summary = (s.sources.find((x) => x.id === s.currentSourceId && x.status === 'ready') ?? s.sources.find((x) => x.status === 'ready'))?.summary;
        const tz = zoneTz(s.zone, summary ? { zoneinfo: summary.zoneinfo, timezone: summary.timezone } : undefined);
        const args = { ...(p.start !== undefined && { start: p.start }), ...(p.finish !== undefined && { finish: p.finish }), ...(p.origin !== undefined && { origin: p.origin }) };
        const r = await getEngine().parseTimeWindow(args, b.startMs, b.endMs, tz);
        if (!r.ok) {
          // libpcp's message quotes the part it parsed (after an "@"): name the parameter.
          const [which, text] = p.start?.includes(r.spec) ? ['S', p.start] : p.finish?.includes(r.spec) ? ['T', p.finish] : ['O', p.origin ?? ''];
          problems.push(`?${which}=${text}:\n${r.message}`);
        } else {
          // -S/-T: the visible window; -O (alone): the right edge, as pmchart's origin.
          if (p.start !== undefined || p.finish !== undefined) {
            dash().changedWindow(r.endMs - r.startMs);
            dash().movedPosition(r.endMs);
          }
          if (p.origin !== undefined) dash().movedPosition(r.originMs);
        }
      }
    }
  } catch (e) {
    problems.push(describeError(asEngineError(e, 'page address')));
  }
  if (problems.length > 0) notify('error', `The page address's time settings could not all be used:\n${problems.join('\n')}`);
}

/** `?view=NAME|URL`: the view replaces the automatic Overview. */
async function applyViewParam(view: string): Promise<void> {
  const d = dash();
  d.replacedLayout([{ id: `t${d.idSerial + 1}`, label: 'View', chartIds: [] }], {}, d.idSerial + 1);
  if (!isViewUrl(view)) {
    await loadStandardView(view);
    return;
  }
  const url = new URL(view, location.href).href;
  try {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
    await openViewText(url.split('/').pop() || url, await res.text());
  } catch (e) {
    notify('error', `?view=${view}: ${url} could not be read (${e instanceof Error ? e.message : String(e)})`);
  }
}

/**
 * Opens what the page parameters name — archives, hosts, or the bundled demo when nothing
 * is named (`?empty`: nothing) — then applies `?view=` and the time parameters.
 */
export async function openFromPage(p: PageParams, demoUrl: string): Promise<void> {
  const opens = [...p.archives.map((a) => openUrl(a)), ...p.hosts.map((h) => openLive(h, bridgeUrlFor(h)))];
  // Only the page's own demo gives way to what the user opens next (open-sources.ts).
  if (opens.length === 0 && !p.empty) opens.push(openUrl(demoUrl, { isDefault: true }));
  await Promise.all(opens);
  if (p.view !== undefined) await applyViewParam(p.view);
  await applyTimeParams(p);
}
