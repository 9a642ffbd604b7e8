// The in-page pmtime: VCR buttons (rewind, reverse, step back, stop, step forward, play, fast
// forward), mode, speed, interval, position slider and text over the archive bounds, window
// length, bounds, and the display zone (docs/pmchart-reference.md §1b). Keyboard shortcuts
// are wired in app.tsx through handleTimeKey.
import { useState } from 'react';
import { dash, useDash, useDashShallow } from '../store';
import { archiveUnionBounds } from '../state/sources-slice';
import type { ZoneChoice } from '../state/model';
import { formatIso, formatCtime, parseIso, type DisplayZone } from './zone';
import { VcrIcon, type VcrIconName } from './vcr-icons';
import { formatSpan, INTERVAL_UNITS, splitInterval, unitMs } from './interval';

interface Props {
  readonly zone: DisplayZone;
}

/** Live controls (pmtime's live window): pause/resume, interval, visible history. */
function LiveControls() {
  const l = useDashShallow((s) => ({ paused: s.livePaused, intervalMs: s.liveIntervalMs, historyMs: s.liveHistoryMs }));
  const s = dash();
  return (
    <div className="live-controls" data-testid="live-controls">
      <span className="source-kind">LIVE</span>
      <button type="button" data-testid="live-pause" onClick={() => s.toggledLivePause()}>{l.paused ? 'Resume' : 'Pause'}</button>
      <label className="field">
        Interval
        <input type="number" data-testid="live-interval" min={0.1} step="any" value={l.intervalMs / 1000} onChange={(e) => s.changedLiveInterval(Number(e.target.value) * 1000)} />
        sec
      </label>
      <label className="field">
        History
        <select data-testid="live-history" value={l.historyMs} onChange={(e) => s.changedLiveHistory(Number(e.target.value))}>
          {[60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000].map((ms) => <option key={ms} value={ms}>{formatSpan(ms)}</option>)}
        </select>
      </label>
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

export function TimeBar({ zone }: Props) {
  const anyLive = useDash((s) => s.sources.some((x) => x.status === 'ready' && x.summary?.kind === 'live'));
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
  }));
  const bounds = t.startMs !== undefined && t.endMs !== undefined ? { startMs: t.startMs, endMs: t.endMs } : undefined;
  const have = bounds !== undefined && Number.isFinite(t.positionMs);
  const iv = splitInterval(t.intervalMs);
  /** The position text while the user edits it; otherwise the field shows the position. */
  const [draft, setDraft] = useState<string | undefined>();
  const [posError, setPosError] = useState(false);
  const posText = draft ?? (have ? formatIso(t.positionMs, zone) : '');

  const s = dash();
  const vcr = (icon: VcrIconName, title: string, testid: string, onClick: () => void, active = false) => (
    <button type="button" className={active ? 'vcr active' : 'vcr'} title={title} aria-label={title} data-testid={testid} disabled={!have} onClick={onClick}>
      <VcrIcon name={icon} />
    </button>
  );
  return (
    <footer className="time-bar" data-testid="time-bar" data-state={t.playState} data-position={have ? t.positionMs : ''} data-window={t.windowMs}>
      {anyLive && <LiveControls />}
      {(have || !anyLive) && (
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
      <label className="field" title="Archive seconds per wall-clock second (pmtime's Speed)">
        Speed
        <input type="number" data-testid="speed" min={0} step="any" value={Number(t.speed.toPrecision(4))} disabled={!have} onChange={(e) => s.changedSpeed(Number(e.target.value))} />
        <button type="button" title="Reset speed to 2 intervals per second" onClick={() => s.resetSpeed()} disabled={!have}>↺</button>
      </label>
      <label className="field">
        Interval
        <input type="number" data-testid="interval" min={0} step="any" value={Number(iv.value.toPrecision(6))} disabled={!have} onChange={(e) => { const v = Number(e.target.value); if (v > 0) s.changedInterval(v * unitMs(iv.unit)); }} />
        <select aria-label="interval unit" value={iv.unit} disabled={!have} onChange={(e) => s.changedInterval(iv.value * unitMs(e.target.value))}>
          {INTERVAL_UNITS.map((u) => <option key={u.name} value={u.name}>{u.name}</option>)}
        </select>
      </label>
      <div className="position">
        <input
          type="range"
          data-testid="position-slider"
          aria-label="position"
          disabled={!have}
          min={bounds?.startMs ?? 0}
          max={bounds?.endMs ?? 1}
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
      <label className="field">
        Zone
        <select data-testid="zone" value={t.zone} onChange={(e) => s.changedZone(e.target.value as ZoneChoice)}>
          <option value="archive">archive host</option>
          <option value="local">local</option>
          <option value="utc">UTC</option>
        </select>
        <span className="zone-label" data-testid="zone-label">{zone.label}</span>
      </label>
      </>
      )}
    </footer>
  );
}
