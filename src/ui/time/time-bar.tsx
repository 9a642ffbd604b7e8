// The in-page pmtime: VCR buttons (rewind, reverse, step back, stop, step forward, play, fast
// forward), mode, speed, interval, position slider and text over the archive bounds, the
// range picker, window length, bounds, and the display zone (docs/pmchart-reference.md §1b).
// As pmtime has two windows, the bar shows the live controls on a live tab and the archive
// controls on an archive tab (both only on a tab mixing the two). Keyboard shortcuts are
// wired in app.tsx through handleTimeKey.
import { useState } from 'react';
import { getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import { dash, useDash, useDashShallow, type DashState } from '../store';
import { archiveUnionBounds } from '../state/sources-slice';
import type { ZoneChoice } from '../state/model';
import { formatIso, formatCtime, parseIso, type DisplayZone } from './zone';
import { VcrIcon, type VcrIconName } from './vcr-icons';
import { formatSpan, INTERVAL_UNITS, splitInterval, unitMs } from './interval';
import { RangePicker } from './range-picker';
import { focusBounds } from '../state/time-slice';

interface Props {
  readonly zone: DisplayZone;
}

/** What the active tab draws from: live hosts, archives, both, or nothing yet. */
export function tabKind(s: Pick<DashState, 'tabs' | 'activeTabId' | 'charts' | 'sources' | 'currentSourceId'>): 'live' | 'archive' | 'mixed' | 'none' {
  const tab = s.tabs.find((t) => t.id === s.activeTabId);
  const kinds = new Set<string>();
  for (const id of tab?.chartIds ?? []) {
    for (const p of s.charts[id]?.plots ?? []) {
      const k = s.sources.find((x) => x.id === p.sourceId)?.summary?.kind;
      if (k) kinds.add(k);
    }
  }
  if (kinds.size === 0) {
    // An empty tab follows the current source, else whatever is open.
    const cur = s.sources.find((x) => x.id === s.currentSourceId && x.status === 'ready')?.summary?.kind;
    if (cur) kinds.add(cur);
    else for (const x of s.sources) if (x.status === 'ready' && x.summary) kinds.add(x.summary.kind);
  }
  if (kinds.has('live') && kinds.has('archive')) return 'mixed';
  if (kinds.has('live')) return 'live';
  return kinds.has('archive') ? 'archive' : 'none';
}

/** Live controls (pmtime's live window): pause/resume, interval, visible history, retry. */
function LiveControls({ mixed }: { mixed: boolean }) {
  const l = useDashShallow((s) => ({ paused: s.livePaused, intervalMs: s.liveIntervalMs, historyMs: s.liveHistoryMs }));
  const waiting = useDashShallow((s) => s.sources.filter((x) => x.status === 'ready' && x.summary?.kind === 'live' && x.connection?.state === 'reconnecting' && x.handle !== undefined).map((x) => x.handle ?? 0));
  const s = dash();
  return (
    <div className="live-controls" data-testid="live-controls">
      <span className="source-kind">LIVE</span>
      <button type="button" data-testid="live-pause" onClick={() => s.toggledLivePause()}>{l.paused ? 'Resume' : 'Pause'}</button>
      <label className="field" title="Live sampling interval; the points already collected stay">
        {mixed ? 'Live interval' : 'Interval'}
        <input type="number" data-testid="live-interval" min={0.1} step="any" value={l.intervalMs / 1000} onChange={(e) => s.changedLiveInterval(Number(e.target.value) * 1000)} />
        sec
      </label>
      <label className="field">
        History
        <select data-testid="live-history" value={l.historyMs} onChange={(e) => s.changedLiveHistory(Number(e.target.value))}>
          {[60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000].map((ms) => <option key={ms} value={ms}>{formatSpan(ms)}</option>)}
        </select>
      </label>
      {waiting.length > 0 && (
        <button
          type="button"
          className="live-retry"
          data-testid="live-retry"
          title="Reconnect to pmcd now instead of waiting"
          onClick={() => {
            for (const h of waiting) getEngine().retryNow(h).catch((e: unknown) => notify('error', `Retry failed: ${e instanceof Error ? e.message : String(e)}`));
          }}
        >
          Retry now
        </button>
      )}
    </div>
  );
}

/** pmtime's Boundaries: narrow the window every chart and the slider may reach. */
function BoundsControl({ zone, startMs, endMs }: { zone: DisplayZone; startMs: number; endMs: number }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const narrowed = useDash((s) => s.bounds !== undefined);
  const a = parseIso(from, zone);
  const b = parseIso(to, zone);
  const ok = Number.isFinite(a) && Number.isFinite(b) && a < b;
  return (
    <span className="bounds">
      <button type="button" data-testid="bounds" className={narrowed ? 'active' : ''} onClick={() => { setFrom(formatIso(startMs, zone)); setTo(formatIso(endMs, zone)); setOpen(!open); }}>
        Bounds{narrowed ? ' *' : ''}
      </button>
      {open && (
        <span className="bounds-form">
          <input aria-label="start bound" data-testid="bound-start" className={Number.isFinite(a) ? 'position-text' : 'position-text bad'} value={from} onChange={(e) => setFrom(e.target.value)} />
          –
          <input aria-label="end bound" data-testid="bound-end" className={Number.isFinite(b) ? 'position-text' : 'position-text bad'} value={to} onChange={(e) => setTo(e.target.value)} />
          <button type="button" disabled={!ok} onClick={() => { dash().narrowedBounds(a, b); setOpen(false); }}>Apply</button>
          <button type="button" onClick={() => { dash().resetBounds(); setOpen(false); }}>Reset</button>
        </span>
      )}
    </span>
  );
}

/** pmtime's interval: a number and a unit; a unit change converts the number, keeping the interval. */
function IntervalField({ have }: { have: boolean }) {
  const t = useDashShallow((s) => ({ intervalMs: s.intervalMs, fixed: s.intervalFixed }));
  const [unit, setUnit] = useState<string | undefined>();
  const shownUnit = unit ?? splitInterval(t.intervalMs).unit;
  const value = t.intervalMs / unitMs(shownUnit);
  const s = dash();
  return (
    <label className="field" title="Sampling interval: follows the window (about one sample per 2 px) unless you type one">
      Interval
      <input type="number" data-testid="interval" min={0} step="any" value={Number(value.toPrecision(6))} disabled={!have} onChange={(e) => { const v = Number(e.target.value); if (v > 0) s.changedInterval(v * unitMs(shownUnit)); }} />
      <select aria-label="interval unit" value={shownUnit} disabled={!have} onChange={(e) => setUnit(e.target.value)}>
        {INTERVAL_UNITS.map((u) => <option key={u.name} value={u.name}>{u.name}</option>)}
      </select>
      <span className="interval-auto">
        <input type="checkbox" data-testid="interval-auto" aria-label="interval follows the window" checked={!t.fixed} disabled={!have} onChange={(e) => { if (e.target.checked) { setUnit(undefined); s.freedInterval(); } else s.changedInterval(t.intervalMs); }} />
        auto
      </span>
    </label>
  );
}

export function TimeBar({ zone }: Props) {
  const kind = useDash(tabKind);
  const t = useDashShallow((s) => ({
    positionMs: s.positionMs,
    intervalMs: s.intervalMs,
    windowMs: s.windowMs,
    playState: s.playState,
    vcrMode: s.vcrMode,
    speed: s.speed,
    zone: s.zone,
    startMs: (s.bounds ?? archiveUnionBounds(s.sources))?.startMs,
    endMs: (s.bounds ?? archiveUnionBounds(s.sources))?.endMs,
    // The slider spans the archive in view (the union may span years between archives).
    focusStartMs: focusBounds(s)?.startMs,
    focusEndMs: focusBounds(s)?.endMs,
  }));
  const bounds = t.startMs !== undefined && t.endMs !== undefined ? { startMs: t.startMs, endMs: t.endMs } : undefined;
  const have = bounds !== undefined && Number.isFinite(t.positionMs);
  /** The position text while the user edits it; otherwise the field shows the position. */
  const [draft, setDraft] = useState<string | undefined>();
  const [posError, setPosError] = useState(false);
  const posText = draft ?? (have ? formatIso(t.positionMs, zone) : '');
  const showLive = kind === 'live' || kind === 'mixed';
  const showArchive = kind !== 'live';

  const s = dash();
  const vcr = (icon: VcrIconName, title: string, testid: string, onClick: () => void, active = false) => (
    <button type="button" className={active ? 'vcr active' : 'vcr'} title={title} aria-label={title} data-testid={testid} disabled={!have} onClick={onClick}>
      <VcrIcon name={icon} />
    </button>
  );
  return (
    <footer className="time-bar" data-testid="time-bar" data-kind={kind} data-state={t.playState} data-position={have ? t.positionMs : ''} data-window={have ? t.windowMs : ''} data-interval={have ? t.intervalMs : ''}>
      {showLive && <LiveControls mixed={kind === 'mixed'} />}
      {showArchive && (
      <>
      <div className="vcr-group">
        {vcr('rewind', 'Rewind (fast reverse)', 'vcr-rewind', () => { s.choseMode('fast'); s.pressedReverse(); }, t.playState === 'backward' && t.vcrMode === 'fast')}
        {vcr('reverse', 'Play backwards (r)', 'vcr-reverse', () => { if (t.vcrMode === 'fast') s.choseMode('normal'); s.pressedReverse(); }, t.playState === 'backward' && t.vcrMode !== 'fast')}
        {vcr('stepBack', 'Step back one interval (←)', 'vcr-step-back', () => s.steppedBack())}
        {vcr('stop', 'Stop (space)', 'vcr-stop', () => s.pressedStop(), t.playState === 'stopped')}
        {vcr('stepForward', 'Step forward one interval (→)', 'vcr-step-forward', () => s.steppedForward())}
        {vcr('play', 'Play (space)', 'vcr-play', () => { if (t.vcrMode === 'fast') s.choseMode('normal'); s.pressedPlay(); }, t.playState === 'forward' && t.vcrMode !== 'fast')}
        {vcr('fastForward', 'Fast forward', 'vcr-fast-forward', () => { s.choseMode('fast'); s.pressedPlay(); }, t.playState === 'forward' && t.vcrMode === 'fast')}
      </div>
      <RangePicker zone={zone} />
      <label className="field" title="Archive seconds per wall-clock second (pmtime's Speed)">
        Speed
        <input type="number" data-testid="speed" min={0} step="any" value={Number(t.speed.toPrecision(4))} disabled={!have} onChange={(e) => s.changedSpeed(Number(e.target.value))} />
        <button type="button" title="Reset speed to 2 intervals per second" onClick={() => s.resetSpeed()} disabled={!have}>↺</button>
      </label>
      <IntervalField have={have} />
      <div className="position">
        <input
          type="range"
          data-testid="position-slider"
          aria-label="position"
          disabled={!have}
          min={t.focusStartMs ?? 0}
          max={t.focusEndMs ?? 1}
          step={t.intervalMs}
          value={have ? t.positionMs : 0}
          onChange={(e) => s.movedPosition(Number(e.target.value))}
        />
        <input
          className={posError ? 'position-text bad' : 'position-text'}
          data-testid="position"
          aria-label="position time"
          title={have ? formatCtime(t.positionMs, zone) : ''}
          value={posText}
          disabled={!have}
          onFocus={() => setDraft(posText)}
          onBlur={() => { setDraft(undefined); setPosError(false); }}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            const ms = parseIso(posText, zone);
            setPosError(Number.isNaN(ms));
            if (!Number.isNaN(ms)) {
              s.movedPosition(ms);
              (e.target as HTMLInputElement).blur();
            }
          }}
        />
      </div>
      {bounds && <BoundsControl zone={zone} startMs={bounds.startMs} endMs={bounds.endMs} />}
      <label className="field" title="Visible time window">
        Window
        <select data-testid="window" value="" disabled={!have} onChange={(e) => { const v = e.target.value; if (v === 'all') s.resetZoom(); else if (v) s.changedWindow(Number(v) * t.intervalMs); }}>
          <option value="">{formatSpan(t.windowMs)}</option>
          {[30, 60, 120, 300, 600, 1200].map((n) => <option key={n} value={n}>{n} points ({formatSpan(n * t.intervalMs)})</option>)}
          <option value="all">reset zoom</option>
        </select>
      </label>
      </>
      )}
      <label className="field">
        Zone
        <select data-testid="zone" value={t.zone} onChange={(e) => s.changedZone(e.target.value as ZoneChoice)}>
          <option value="archive">{showArchive ? 'archive host' : 'pmcd host'}</option>
          <option value="local">local</option>
          <option value="utc">UTC</option>
          {t.zone.startsWith('tz:') && <option value={t.zone}>{t.zone.slice(3)}</option>}
        </select>
        <span className="zone-label" data-testid="zone-label">{zone.label}</span>
      </label>
    </footer>
  );
}
