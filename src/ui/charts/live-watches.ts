// Which live streams run: one per chart and live source, for every chart of every tab, not
// only the charts on screen. A chart in a tab the user is not looking at keeps collecting its
// samples (the engine fetches once per source and tick anyway) but draws nothing, as it is
// not mounted; shown again, it draws its whole history at once, as pmchart's hidden tabs do.
// Streams follow the store: a chart's plots, its rate, the live interval and history, pause;
// a chart's rows are forgotten when the chart is removed.
import { liveHub } from '../series/live-hub';
import type { DashState } from '../state/dash-state';
import { watchDash, dash } from '../store';
import { plotsBySource } from './use-chart-series';

interface Running {
  /** What the stream was started with; a change is handed to liveHub.watch again. */
  readonly sig: string;
  readonly stop: () => void;
}

const running = new Map<string, Running>();
/** Chart ids that had live rows, to forget them once the chart is gone. */
const known = new Set<string>();

function reconcile(s: DashState): void {
  const wanted = new Set<string>();
  if (!s.livePaused) {
    for (const chart of Object.values(s.charts)) {
      for (const [sourceId, plots] of plotsBySource(chart)) {
        const src = s.sources.find((x) => x.id === sourceId);
        if (!src || src.status !== 'ready' || src.handle === undefined || src.summary?.kind !== 'live') continue;
        const id = `${chart.id}|${sourceId}`;
        wanted.add(id);
        known.add(chart.id);
        const sig = JSON.stringify([src.handle, plots, chart.rate, s.liveIntervalMs, s.liveHistoryMs]);
        if (running.get(id)?.sig === sig) continue;
        // liveHub.watch restarts the stream itself when the plots or the interval changed,
        // and only takes the new history otherwise: the old stop is not called here.
        running.set(id, { sig, stop: liveHub.watch(chart.id, sourceId, src.handle, plots, chart.rate, s.liveIntervalMs, s.liveHistoryMs) });
      }
    }
  }
  for (const [id, r] of running) {
    if (wanted.has(id)) continue;
    r.stop();
    running.delete(id);
  }
  for (const chartId of known) {
    if (s.charts[chartId]) continue;
    liveHub.drop(chartId);
    known.delete(chartId);
  }
}

/** Starts following the store (once, at start-up); returns the unsubscribe. */
export function startLiveWatches(): () => void {
  reconcile(dash());
  return watchDash((s, prev) => {
    if (s.charts === prev.charts && s.sources === prev.sources && s.livePaused === prev.livePaused && s.liveIntervalMs === prev.liveIntervalMs && s.liveHistoryMs === prev.liveHistoryMs) return;
    reconcile(s);
  });
}
