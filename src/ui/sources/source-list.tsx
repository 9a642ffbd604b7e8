// The sources panel: every archive or host with its status, progress bar, time span and any
// error (per file), plus the ways to open more: file picker (files or a folder), URL, live
// host, and the recent archive URLs and hosts this browser remembers (recent-sources.ts).
import { useId, useRef, useState, useSyncExternalStore } from 'react';
import { dash, useDash } from '../store';
import './sources.css';
import type { SourceEntry } from '../state/model';
import { formatCtime, type DisplayZone } from '../time/zone';
import { bridgeUrlFor, PMCD_PORT } from './bridge-url';
import { connectionText } from './connection-text';
import { closeSource, openFiles, openLive, openUrl, pickFolder, selectSource } from './open-sources';
import { readPicked } from './read-drop';
import { alignStartOffset, formatOffset, offsetText, parseOffset } from './time-shift';
import { forgetSource, recentKey, recentSources, recentTarget, subscribeRecentSources, type RecentSource } from './recent-sources';

/**
 * An archive's time shift, for overlaying incidents of other days or hosts: an offset in
 * PCP interval syntax with a sign, or "align its start with" another archive's start.
 */
function ShiftEditor({ s, others, close }: { s: SourceEntry; others: readonly SourceEntry[]; close: () => void }) {
  const [text, setText] = useState(s.offsetMs ? offsetText(s.offsetMs) : '');
  const [error, setError] = useState<string | undefined>();
  const apply = (): void => {
    const r = parseOffset(text);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setError(undefined);
    dash().shiftedSource(s.id, r.offsetMs);
    close();
  };
  return (
    // Clicks here must not select the source (the row's click does that).
    <div className="shift-editor" data-testid="shift-editor" onClick={(e) => e.stopPropagation()}>
      <form className="open-row" onSubmit={(e) => { e.preventDefault(); apply(); }}>
        <input aria-label="time shift" data-testid="shift-input" placeholder="+1 day, -2h30m" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" data-testid="shift-apply">Shift</button>
      </form>
      {others.length > 0 && (
        <select
          aria-label="align start with"
          data-testid="shift-align"
          value=""
          onChange={(e) => {
            const target = others.find((o) => o.id === e.target.value);
            const off = target ? alignStartOffset(s, target) : undefined;
            if (off !== undefined) {
              dash().shiftedSource(s.id, off);
              close();
            }
          }}
        >
          <option value="">Align its start with…</option>
          {others.map((o) => <option key={o.id} value={o.id}>{o.label}</option>)}
        </select>
      )}
      {s.offsetMs !== undefined && <button type="button" className="small" data-testid="shift-reset" onClick={() => { dash().shiftedSource(s.id, 0); close(); }}>No shift</button>}
      {error && <pre className="source-error" data-testid="shift-error">{error}</pre>}
    </div>
  );
}

/** Whether an archive is followed as pmlogger writes it, where that matters (SourceEntry.follow). */
function FollowNote({ s }: { s: SourceEntry }) {
  const sum = s.summary;
  if (s.status !== 'ready' || sum?.kind !== 'archive') return null;
  if (s.follow === 'following') {
    return <div className="follow" data-testid="source-follow" data-state="following" title="Read again every logging interval while it grows">following as pmlogger writes it</div>;
  }
  if (s.follow === 'snapshot') {
    return (
      <div className="follow" data-testid="source-follow" data-state="snapshot" title="This browser gave the page copies of the files as they were when opened. A folder dropped or opened with “Open folder…” in a Chromium-based browser is read again as it grows.">
        a snapshot: not followed as it grows
      </div>
    );
  }
  return null;
}

/** A set's "FIRST … LAST" name is cut in its last part, so the cut never doubles the "…" between them. */
function SourceName({ label }: { label: string }) {
  const cut = label.indexOf(' … ');
  if (cut < 0) return <span className="source-name" title={label}>{label}</span>;
  return (
    <span className="source-name set" title={label}>
      <span className="source-name-first">{label.slice(0, cut)} … </span>
      <span className="source-name-last">{label.slice(cut + 3)}</span>
    </span>
  );
}

function SourceRow({ s, current, zone, others }: { s: SourceEntry; current: boolean; zone: DisplayZone; others: readonly SourceEntry[] }) {
  const sum = s.summary;
  const [shifting, setShifting] = useState(false);
  return (
    <li className={`source ${s.status}${current ? ' current' : ''}`} data-testid="source" data-status={s.status} data-label={s.label} onClick={() => selectSource(s.id)}>
      <div className="source-head">
        <span className="source-kind">{sum?.kind === 'live' || s.origin.kind === 'live' ? 'LIVE' : 'ARCHIVE'}</span>
        <SourceName label={s.label} />
        {s.status === 'ready' && sum?.kind === 'archive' && (
          <button type="button" className="small" data-testid="shift-source" aria-expanded={shifting} title="Shift in time, to overlay another day or host" onClick={(e) => { e.stopPropagation(); setShifting(!shifting); }}>⇆</button>
        )}
        {s.status === 'ready' && (
          <button type="button" className="small" title="Close source" onClick={(e) => { e.stopPropagation(); void closeSource(s.id); }}>✕</button>
        )}
        {/* A failed or closed source has nothing to close: its ✕ takes it (and its notice) off the list. */}
        {(s.status === 'failed' || s.status === 'closed') && (
          <button type="button" className="small" title="Remove from the list" onClick={(e) => { e.stopPropagation(); dash().forgotSource(s.id); }}>✕</button>
        )}
      </div>
      {/* Only slow opens get progress (open-sources.ts sets it after a delay). */}
      {s.status === 'opening' && s.progress && (
        <div className="progress" data-testid="source-progress">
          <progress value={!Number.isNaN(s.progress.fraction) ? s.progress.fraction : undefined} max={1} />
          <span data-testid="source-phase">{s.progress.phase}</span>
        </div>
      )}
      {sum && (
        <div className="source-meta" data-testid="source-meta">
          host <b>{sum.hostname}</b> · {sum.metricCount} metrics
          {sum.archives.length > 1 && <> · <span data-testid="source-archives" data-count={sum.archives.length} title={sum.archives.join('\n')}>{sum.archives.length} archives</span></>}
          {sum.kind === 'archive' && (
            <div className="span">{formatCtime(sum.startMs, zone)} – {formatCtime(sum.endMs, zone)}</div>
          )}
          <FollowNote s={s} />
          {s.offsetMs !== undefined && (
            <div className="shifted" data-testid="source-shift" data-offset={s.offsetMs}>drawn shifted by {formatOffset(s.offsetMs)}</div>
          )}
        </div>
      )}
      {shifting && <ShiftEditor s={s} others={others} close={() => setShifting(false)} />}
      {s.connection && (
        <div className={`connection ${s.connection.state}`} data-testid="connection" data-state={s.connection.state}>
          {connectionText(s.connection)}
        </div>
      )}
      {/* Errors and warnings are told once, in the notification area (menu/notices-list.tsx). */}
      {s.status === 'failed' && <div className="source-error" data-testid="source-status">failed · see notices</div>}
      {s.status === 'closed' && s.origin.kind !== 'live' && <div className="source-meta" data-testid="source-status">closed</div>}
    </li>
  );
}

/** Opens a remembered source the way typing it in the fields above would. */
function reopen(r: RecentSource): void {
  if (r.kind === 'url') void openUrl(r.url);
  else void openLive(r.host, bridgeUrlFor(r.host));
}

/**
 * The remembered archive URLs and live hosts that are not open in this page (those are in
 * the list above; a failed or closed one is offered again). Nothing is shown when there is
 * nothing to offer, as in a fresh browser.
 */
function RecentSources({ sources }: { sources: readonly SourceEntry[] }) {
  const recent = useSyncExternalStore(subscribeRecentSources, recentSources, recentSources);
  const titleId = useId();
  const open = new Set(sources.flatMap((s) => ((s.status === 'ready' || s.status === 'opening') && s.origin.kind !== 'files' ? [recentKey(s.origin)] : [])));
  const shown = recent.filter((r) => !open.has(recentKey(r)));
  if (shown.length === 0) return null;
  return (
    <div className="recent-sources" data-testid="recent-sources">
      <div className="recent-sources-title" id={titleId}>Recent</div>
      <ul aria-labelledby={titleId}>
        {shown.map((r) => {
          const target = recentTarget(r);
          const what = r.kind === 'url' ? 'archive URL' : 'live host';
          const name = r.kind === 'url' ? target.replace(/\/+$/, '').split('/').pop() || target : target;
          return (
            <li key={recentKey(r)} className="recent-source" data-testid="recent-source" data-kind={r.kind} data-target={target}>
              <button type="button" className="recent-open" aria-label={`${r.kind === 'url' ? 'Open' : 'Connect to'} ${what} ${target}`} title={`${what} ${target}, last opened ${new Date(r.savedMs).toLocaleString()}`} onClick={() => reopen(r)}>
                <span className={`source-kind ${r.kind}`}>{r.kind === 'url' ? 'ARCHIVE' : 'LIVE'}</span>
                <span className="recent-name">{name}</span>
              </button>
              <button type="button" className="small" data-testid="forget-recent-source" aria-label={`Remove ${what} ${target} from recent sources`} title="Remove from recent sources" onClick={() => forgetSource(r)}>✕</button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function SourceList({ zone }: { zone: DisplayZone }) {
  const sources = useDash((s) => s.sources);
  const current = useDash((s) => s.currentSourceId);
  const filesInput = useRef<HTMLInputElement>(null);
  const dirInput = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const [host, setHost] = useState(`localhost:${PMCD_PORT}`);
  return (
    <div className="sources" data-testid="sources">
      <div className="panel-title">Sources</div>
      <ul>{sources.map((s) => <SourceRow key={s.id} s={s} current={s.id === current} zone={zone} others={sources.filter((o) => o.id !== s.id && o.status === 'ready' && o.summary?.kind === 'archive')} />)}</ul>
      <div className="open-row">
        <button type="button" onClick={() => filesInput.current?.click()} title="Pick every file of one or more archives (.meta, .index, .0 …)">Open files…</button>
        <button type="button" onClick={() => void pickFolder(() => dirInput.current?.click())} title="Pick a folder of archives">Open folder…</button>
        <input ref={filesInput} type="file" multiple hidden data-testid="file-input" onChange={(e) => { if (e.target.files) void openFiles(readPicked(e.target.files)); e.target.value = ''; }} />
        <input ref={dirInput} type="file" hidden {...{ webkitdirectory: '' }} onChange={(e) => { if (e.target.files) void openFiles(readPicked(e.target.files)); e.target.value = ''; }} />
      </div>
      <form className="open-row" onSubmit={(e) => { e.preventDefault(); if (url.trim()) void openUrl(url.trim()); setUrl(''); }}>
        <input type="url" placeholder="archive URL (base name)" aria-label="archive URL" data-testid="url-input" value={url} onChange={(e) => setUrl(e.target.value)} />
        <button type="submit">Open</button>
      </form>
      <form className="open-row" onSubmit={(e) => { e.preventDefault(); if (host.trim()) void openLive(host.trim(), bridgeUrlFor(host.trim())); }}>
        <input placeholder="pmcd host" aria-label="pmcd host" data-testid="host-input" value={host} onChange={(e) => setHost(e.target.value)} />
        <button type="submit" data-testid="connect-host">Connect live</button>
      </form>
      <RecentSources sources={sources} />
      <p className="hint">…or drop archive files or folders anywhere on the page.</p>
    </div>
  );
}
