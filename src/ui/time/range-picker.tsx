// The time-range picker (Grafana's, in PCP's terms): the whole archive, its first or last
// 15 min, 1 h, 6 h, 24 h, or a custom start and end typed in PCP time syntax (`@ 10:30`,
// `+1h`, `-30min`, ctime, ISO dates, getdate's free forms) as -S and -T take them. The
// engine parses them with the core's pmParseHighResTimeWindow against the archive's bounds
// and zone, so what works in `pmval -S` works here, and a bad entry shows libpcp's own
// message (the text, a caret under the problem, the reason). Next to it, zoom back and reset.
import { useCallback, useRef, useState } from 'react';
import { getEngine, asEngineError, describeError } from '../engine-client';
import { dash, useDash, useDashShallow } from '../store';
import { focusBounds } from '../state/time-slice';
import { usePopup } from '../menu/use-popup';
import { formatCtime, zoneTz, type DisplayZone } from './zone';
import './time-bar.css';

const PRESETS: readonly { readonly id: string; readonly label: string; readonly ms: number }[] = [
  { id: '15min', label: '15 min', ms: 900_000 },
  { id: '1h', label: '1 h', ms: 3_600_000 },
  { id: '6h', label: '6 h', ms: 21_600_000 },
  { id: '24h', label: '24 h', ms: 86_400_000 },
];

/** The TZ value for the chosen display zone (the current source's for "archive host"). */
function currentTz(): string {
  const s = dash();
  const summary = (s.sources.find((x) => x.id === s.currentSourceId && x.status === 'ready') ?? s.sources.find((x) => x.status === 'ready'))?.summary;
  return zoneTz(s.zone, summary ? { zoneinfo: summary.zoneinfo, timezone: summary.timezone } : undefined);
}

/**
 * Parses -S/-T text against the archive in view and shows the range; resolves to libpcp's
 * message when either does not parse.
 */
export async function applyTypedRange(from: string, to: string): Promise<string | undefined> {
  const b = focusBounds(dash());
  if (!b) return 'no archive is open';
  const args = { ...(from.trim() && { start: from.trim() }), ...(to.trim() && { finish: to.trim() }) };
  let r;
  try {
    r = await getEngine().parseTimeWindow(args, b.startMs, b.endMs, currentTz());
  } catch (e) {
    return describeError(asEngineError(e, 'time window'));
  }
  if (!r.ok) return `${args.start?.includes(r.spec) ? 'Start' : 'End'}:\n${r.message}`;
  if (!(r.endMs > r.startMs)) return 'The end is not after the start (both are kept within the archive).';
  dash().showedRange(r.startMs, r.endMs);
  return undefined;
}

/**
 * "Sun Apr 15 09:16:18 2018 – 14:28:18 2018": the end's weekday, month and day are left out
 * only when it falls on the start's day; a range over days names both.
 */
function rangeLabel(t0Ms: number, t1Ms: number, zone: DisplayZone): string {
  const a = formatCtime(t0Ms, zone);
  const b = formatCtime(t1Ms, zone);
  const day = /^\w+ \w+ +\d+ /;
  const sameDay = day.exec(a)?.[0] === day.exec(b)?.[0] && a.slice(-4) === b.slice(-4);
  return `${a} – ${sameDay ? b.replace(day, '') : b}`;
}

export function RangePicker({ zone }: { zone: DisplayZone }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | undefined>();
  const t = useDashShallow((s) => ({ positionMs: s.positionMs, windowMs: s.windowMs, zooms: s.zoomHistory.length }));
  const bounds = useDashShallow((s) => focusBounds(s) ?? { startMs: NaN, endMs: NaN });
  const have = useDash((s) => Number.isFinite(s.positionMs)) && Number.isFinite(bounds.startMs);
  const pick = (t0: number, t1: number): void => {
    dash().showedRange(t0, t1);
    setOpen(false);
  };
  const label = have ? rangeLabel(t.positionMs - t.windowMs, t.positionMs, zone) : 'no archive';
  // Like the header menus: a click elsewhere or Escape closes it, so it never stays over the charts.
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeQuietly = useCallback(() => setOpen(false), []);
  const onEscape = usePopup(open, root, closeQuietly, () => {
    setOpen(false);
    button.current?.focus();
  });
  return (
    <span
      className="range-picker"
      ref={root}
      onKeyDown={onEscape}
    >
      <button ref={button} type="button" data-testid="range-picker" aria-expanded={open} disabled={!have} title="Time range (PCP time syntax: @ 10:30, +1h, -30min)" onClick={() => { setOpen(!open); setError(undefined); }}>
        {label}
      </button>
      <button type="button" data-testid="zoom-back" disabled={t.zooms === 0} title="Back to the previous range (Backspace)" onClick={() => dash().zoomedBack()}>⤺</button>
      <button type="button" data-testid="zoom-reset" disabled={!have} title="Reset zoom: the range before the first zoom, or the whole archive (0)" onClick={() => dash().resetZoom()}>⤢</button>
      {open && have && (
        <div className="range-menu" data-testid="range-menu" role="dialog" aria-label="time range">
          <div className="range-quick">
            <button type="button" data-testid="range-whole" onClick={() => pick(bounds.startMs, bounds.endMs)}>Whole archive</button>
            {PRESETS.map((p) => (
              <span key={p.id} className="range-row">
                <button type="button" data-testid={`range-first-${p.id}`} onClick={() => pick(bounds.startMs, bounds.startMs + p.ms)}>First {p.label}</button>
                <button type="button" data-testid={`range-last-${p.id}`} onClick={() => pick(bounds.endMs - p.ms, bounds.endMs)}>Last {p.label}</button>
              </span>
            ))}
          </div>
          <form
            className="range-custom"
            onSubmit={(e) => {
              e.preventDefault();
              void applyTypedRange(from, to).then((err) => {
                setError(err);
                if (!err) setOpen(false);
              });
            }}
          >
            <label>
              Start (-S)
              <input data-testid="range-from" value={from} placeholder="@ 10:30, +1h, 2018-04-16 10:30" onChange={(e) => setFrom(e.target.value)} />
            </label>
            <label>
              End (-T)
              <input data-testid="range-to" value={to} placeholder="-30min, +2h, @ 14:00" onChange={(e) => setTo(e.target.value)} />
            </label>
            <button type="submit" data-testid="range-apply">Apply</button>
            {error !== undefined && <pre className="range-error" data-testid="range-error" role="alert">{error}</pre>}
            <span className="range-hint">Times in {zone.label}; “+” from the start, “-” from the end, “@” a date or time.</span>
          </form>
        </div>
      )}
    </span>
  );
}
