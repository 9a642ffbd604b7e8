// The application shell: a header naming what is open, the sources panel and metric browser
// on the left, tabs of charts in the middle, the chart editor on the right when open, and
// the time bar at the bottom (pmchart's layout with pmtime brought into the page). The whole
// page is the drop target for archive files and folders.
import { useCallback, useEffect, useState } from 'react';
import { MetricBrowser } from './browser/metric-browser';
import { ChartEditor } from './charts/chart-editor';
import { ChartGrid, TabBar } from './charts/chart-grid';
import { openFiles } from './sources/open-sources';
import { readDrop } from './sources/read-drop';
import { SourceList } from './sources/source-list';
import { useDash } from './store';
import { handleTimeKey, startPlayback } from './time/playback';
import { TimeBar } from './time/time-bar';
import { useZone } from './time/use-zone';
import { formatCtime } from './time/zone';
import { useHover } from './store';
import { formatClock } from './time/zone';
import { MenuBar, NoticesList } from './menu/menu-bar';
import { ShortcutSheet } from './menu/shortcut-sheet';
import { isSheetKey } from './menu/shortcuts';
import { EmptyState } from './sources/empty-state';
import { FleetPanel } from './fleet/fleet-panel';
import { FleetView } from './fleet/fleet-view';
import { useFleet } from './fleet/fleet-state';

function Header() {
  const zone = useZone();
  const src = useDash((s) => s.sources.find((x) => x.id === s.currentSourceId && x.status === 'ready'));
  const sum = src?.summary;
  return (
    <header className="top-bar">
      <span className="brand">pmdash</span>
      {sum ? (
        <span className="headline" data-testid="headline">
          {sum.kind === 'archive' ? 'Archive' : 'Live'} <b>{sum.name}</b> from host <b data-testid="headline-host">{sum.hostname}</b>
          {sum.kind === 'archive' && <> · <span data-testid="headline-span">{formatCtime(sum.startMs, zone)} – {formatCtime(sum.endMs, zone)}</span></>}
        </span>
      ) : (
        <span className="headline muted">Drop PCP archive files here, or open a URL</span>
      )}
      <MenuBar />
    </header>
  );
}

function HoverReadout() {
  const zone = useZone();
  const t = useHover((h) => h.timeMs);
  return <span className="hover-readout" data-testid="hover-time" title="Time under the pointer">{t === undefined ? '' : formatClock(t, zone)}</span>;
}

export function App() {
  const editing = useDash((s) => s.editing);
  const zone = useZone();
  const [dragging, setDragging] = useState(false);

  const [sheet, setSheet] = useState(false);
  const closeSheet = useCallback(() => setSheet(false), []);
  // Nothing open or opening: the middle says what to do instead of showing empty charts.
  const fleetTab = useFleet((s) => s.tab !== undefined);
  const nothingOpen = useDash((s) => !s.sources.some((x) => x.status === 'ready' || x.status === 'opening'));

  useEffect(() => startPlayback(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (isSheetKey(e)) {
        e.preventDefault();
        setSheet((v) => !v);
        return;
      }
      if (handleTimeKey(e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div
      className="app"
      data-testid="drop-target"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        void readDrop(e.dataTransfer).then(({ files, folders }) => openFiles(files, folders));
      }}
    >
      <Header />
      <NoticesList />
      <div className="main">
        <aside className="side">
          <SourceList zone={zone} />
          <MetricBrowser />
          <FleetPanel />
        </aside>
        <section className="center">
          {fleetTab ? (
            <FleetView />
          ) : nothingOpen ? (
            <EmptyState onShortcuts={() => setSheet(true)} />
          ) : (
            <>
              <TabBar />
              <ChartGrid />
            </>
          )}
        </section>
        {editing && <ChartEditor chartId={editing} />}
      </div>
      <div className="bottom">
        <HoverReadout />
        <TimeBar zone={zone} />
      </div>
      {sheet && <ShortcutSheet onClose={closeSheet} />}
      {dragging && <div className="drop-overlay">Drop archive files or folders to open them</div>}
    </div>
  );
}
