// Browser entry: mounts the app, then opens what the page address asks for — pmchart's
// command line as parameters (`?archive=URL` and `?host=HOST[:PORT]`, each repeatable,
// `?view= ?S= ?T= ?O= ?t= ?Z= ?z`, state/page-params.ts) or, by default, the bundled demo
// archive (`?empty` opens nothing); a dashboard link (`#dash=…`) reopens its own sources.
// Derived-metric configurations remembered from earlier visits are loaded before anything opens.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { startLiveWatches } from './charts/live-watches';
import { restoreDerivedConfigs } from './sources/derived-configs';
import { readPageParams } from './state/page-params';
import { openFromPage, restoreFromAddress, startUrlSync } from './state/url-sync';
import { warmUpCharts } from './charts/warm-up';
import { standardOverview } from './views/overview';
import { getEngine } from './engine-client';
import './styles.css';

// The engine worker starts at once, on its own thread, not in idle time: its xz pool then warms
// its decoder up while the page renders, and a drop right after the page shows does not wait
// for the worker's script (issue 19 item 5).
getEngine();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Live streams for every chart of every tab, shown or not.
startLiveWatches();

// Derived metrics the user loaded on earlier visits come first, so charts find them. Then a
// dashboard in the address (`#dash=…`, issue 8) takes precedence over the parameters.
const restoring = restoreDerivedConfigs().then(() => restoreFromAddress(location.hash) ?? openFromPage(readPageParams(location.search), new URL('demo/pmdash-demo', document.baseURI).href));
// From then on the address follows the dashboard.
void restoring.finally(() => startUrlSync());

// While the page waits for its first archive, what every open then needs is readied in idle
// time (issue 19 item 5): the Overview view asked of the engine worker (started above), and
// the chart code run once (charts/warm-up.ts). A failed ask is asked again, and reported, by
// the open that needs it.
const whenIdle = (fn: () => void): void => void (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 0));
whenIdle(() => {
  standardOverview().catch(() => undefined);
  warmUpCharts();
});
