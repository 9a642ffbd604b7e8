// The header's menus (issue 8): Views (pmchart's standard views, open a view file, save the
// dashboard as one, recent dashboards), Export (chart or tab as PNG, visible data as CSV,
// visible window as PCP archives), Share (a link that reproduces the screen) and the theme.
// Plain buttons: every item is reachable with Tab, opens with Enter or Space, Escape closes
// the open menu and returns focus to its button.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { getEngine } from '../engine-client';
import { exportArchives, exportCsv, exportPng } from '../export/export-actions';
import { startRecording, stopRecordings, useRecordings } from '../export/record-actions';
import { dashboardLink, recentDashboards } from '../state/url-sync';
import { useDash } from '../store';
import { setThemeChoice, useThemeChoice, type ThemeChoice } from '../theme/theme';
import { forgetDerivedConfigs, loadDerivedConfig } from '../sources/derived-configs';
import { useZone } from '../time/use-zone';
import { loadStandardView, openViewFile, saveView } from '../views/view-actions';
import { NoticesList } from './notices-list';
import { usePopup } from './use-popup';

interface MenuProps {
  readonly label: string;
  readonly testId: string;
  readonly children: (close: () => void) => ReactNode;
}

function Menu({ label, testId, children, className }: MenuProps & { className?: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Closing from inside the menu gives focus back to its button (keyboard users stay put).
  const [refocus, setRefocus] = useState(0);
  useEffect(() => {
    if (refocus > 0) button.current?.focus();
  }, [refocus]);
  const closeQuietly = useCallback(() => setOpen(false), []);
  const close = (): void => {
    setOpen(false);
    setRefocus((n) => n + 1);
  };
  const onEscape = usePopup(open, root, closeQuietly, close);
  return (
    <div
      className="menu"
      ref={root}
      onKeyDown={(e) => {
        onEscape(e);
        // Space and arrows are the time bar's shortcuts page-wide; on a menu button they must
        // do what they do on any button (activate, move), not play the archive.
        if (e.key === ' ' || e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End') e.stopPropagation();
      }}
    >
      <button ref={button} type="button" className={className} aria-haspopup="menu" aria-expanded={open} data-testid={testId} onClick={() => setOpen(!open)}>
        {label} ▾
      </button>
      {open && (
        <div className="menu-list" role="menu" aria-label={label}>
          {children(close)}
        </div>
      )}
    </div>
  );
}

function Item({ onClick, children, testId, disabled }: { onClick: () => void; children: ReactNode; testId?: string; disabled?: boolean }) {
  return (
    <button type="button" role="menuitem" data-testid={testId} disabled={disabled} onClick={onClick}>
      {children}
    </button>
  );
}

function ViewsMenu() {
  const [standard, setStandard] = useState<{ name: string; description: string }[]>([]);
  const picker = useRef<HTMLInputElement>(null);
  const derivedPicker = useRef<HTMLInputElement>(null);
  const hasSource = useDash((s) => s.sources.some((x) => x.status === 'ready'));
  const derivedCount = useDash((s) => s.derivedConfigs.length);
  useEffect(() => {
    void getEngine()
      .standardViews()
      .then((v) => setStandard(v.map(({ name, description }) => ({ name, description }))));
  }, []);
  return (
    <>
      <input
        ref={picker}
        type="file"
        hidden
        data-testid="view-file-input"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void openViewFile(f);
        }}
      />
      <input
        ref={derivedPicker}
        type="file"
        hidden
        multiple
        accept=".conf,text/plain"
        data-testid="derived-config-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          void (async () => {
            for (const f of files) await loadDerivedConfig(f.name, await f.text());
          })();
        }}
      />
      <Menu label="Views" testId="views-menu">
        {(close) => (
          <>
            <Item testId="open-view" onClick={() => { close(); picker.current?.click(); }}>Open view file…</Item>
            <Item testId="save-view" onClick={() => { close(); void saveView(); }}>Save dashboard as view file</Item>
            <Item testId="load-derived" onClick={() => { close(); derivedPicker.current?.click(); }}>
              Load derived metrics…
              <span className="menu-item-desc">a pmLoadDerivedConfig file (name = expression), remembered here</span>
            </Item>
            {derivedCount > 0 && (
              <Item testId="forget-derived" onClick={() => { close(); forgetDerivedConfigs(); }}>
                Forget loaded derived metrics
              </Item>
            )}
            <hr />
            <div className="menu-heading">pmchart's standard views</div>
            {!hasSource && <div className="menu-note">Open an archive or host first</div>}
            {standard.map((v) => (
              <Item key={v.name} testId={`standard-view-${v.name}`} disabled={!hasSource} onClick={() => { close(); void loadStandardView(v.name); }}>
                {v.name}
                <span className="menu-item-desc">{v.description}</span>
              </Item>
            ))}
            <RecentList close={close} />
          </>
        )}
      </Menu>
    </>
  );
}

function RecentList({ close }: { close: () => void }) {
  const recent = recentDashboards();
  if (recent.length === 0) return null;
  return (
    <>
      <hr />
      <div className="menu-heading">Recent dashboards</div>
      {recent.map((r) => (
        <Item
          key={r.savedMs + r.fragment}
          onClick={() => {
            close();
            location.hash = r.fragment;
            location.reload();
          }}
        >
          {r.title}
          <span className="menu-item-desc">{new Date(r.savedMs).toLocaleString()}</span>
        </Item>
      ))}
    </>
  );
}

function ExportMenu() {
  const zone = useZone();
  const hasChart = useDash((s) => s.currentChartId !== undefined && s.charts[s.currentChartId] !== undefined);
  return (
    <Menu label="Export" testId="export-menu">
      {(close) => (
        <>
          <Item testId="export-png-chart" disabled={!hasChart} onClick={() => { close(); void exportPng('chart', zone); }}>Selected chart as PNG</Item>
          <Item testId="export-png-tab" onClick={() => { close(); void exportPng('tab', zone); }}>Whole tab as PNG</Item>
          <hr />
          <Item testId="export-csv-chart" disabled={!hasChart} onClick={() => { close(); void exportCsv('chart', zone); }}>Selected chart's visible data as CSV</Item>
          <Item testId="export-csv-tab" onClick={() => { close(); void exportCsv('tab', zone); }}>Tab's visible data as CSV</Item>
          <hr />
          <Item testId="export-archive" onClick={() => { close(); void exportArchives(); }}>
            Visible window as PCP archive
            <span className="menu-item-desc">a .tar of BASE.meta, BASE.index and BASE.0 per archive</span>
          </Item>
        </>
      )}
    </Menu>
  );
}

/** pmchart's Record: the live charts of this tab (or all tabs) into a PCP archive per host. */
function RecordMenu() {
  const hasLive = useDash((s) => s.sources.some((x) => x.status === 'ready' && x.summary?.kind === 'live'));
  const active = useRecordings();
  const samples = active.reduce((n, r) => n + r.status.records, 0);
  const recording = active.length > 0;
  return (
    <Menu label={recording ? `● Recording (${samples})` : 'Record'} testId="record-menu" className={recording ? 'recording' : undefined}>
      {(close) =>
        recording ? (
          <>
            {active.map((r) => (
              <div key={r.status.id} className="menu-note" data-testid="recording-status">
                {r.host}: {r.status.records} samples of {r.status.metrics} metrics, {(r.status.bytes / 1024).toFixed(0)} KB
                {r.status.capped ? ` — stopped at the ${Math.round(r.status.capBytes / 1048576)} MB cap` : ''}
                {r.status.error ? ` — stopped: ${r.status.error.message}` : ''}
              </div>
            ))}
            <Item testId="record-stop" onClick={() => { close(); void stopRecordings(); }}>
              Stop recording and download
              <span className="menu-item-desc">a .tar per host: BASE.meta, BASE.index, BASE.0 and BASE.view</span>
            </Item>
          </>
        ) : (
          <>
            {!hasLive && <div className="menu-note">Connect to a live host first</div>}
            <Item testId="record-tab" disabled={!hasLive} onClick={() => { close(); void startRecording('tab'); }}>
              Record this tab's live charts
              <span className="menu-item-desc">into a PCP archive (v3) at the live interval, up to 64 MB per host</span>
            </Item>
            <Item testId="record-all" disabled={!hasLive} onClick={() => { close(); void startRecording('all'); }}>
              Record every tab's live charts
            </Item>
          </>
        )
      }
    </Menu>
  );
}

function ShareMenu() {
  return <Menu label="Share" testId="share-menu">{() => <ShareBody />}</Menu>;
}

/** Made when the menu opens: the link to this dashboard, copied to the clipboard if allowed. */
function ShareBody() {
  const [link, setLink] = useState(() => dashboardLink());
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    void navigator.clipboard?.writeText(link).then(
      () => live && setCopied(true),
      () => live && setCopied(false),
    );
    return () => {
      live = false;
    };
  }, [link]);
  return (
    <>
      <div className="menu-note">{copied ? 'Link copied: it reopens these charts at this time' : 'This link reopens these charts at this time'}</div>
      <input className="share-link" readOnly value={link} data-testid="share-link" aria-label="dashboard link" onFocus={(e) => e.target.select()} />
      <Item testId="copy-link" onClick={() => setLink(dashboardLink())}>Copy link</Item>
    </>
  );
}

function ThemeSwitch() {
  const choice = useThemeChoice();
  return (
    <select className="theme-select" aria-label="theme" data-testid="theme" value={choice} onChange={(e) => setThemeChoice(e.target.value as ThemeChoice)}>
      <option value="system">Theme: system</option>
      <option value="light">Theme: light</option>
      <option value="dark">Theme: dark</option>
    </select>
  );
}

export function MenuBar() {
  return (
    <nav className="menu-bar" aria-label="pmdash menus">
      <ViewsMenu />
      <ExportMenu />
      <RecordMenu />
      <ShareMenu />
      <ThemeSwitch />
    </nav>
  );
}

export { NoticesList };
