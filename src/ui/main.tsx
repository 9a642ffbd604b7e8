// Browser entry: mounts the app, then opens what the page address asks for — pmchart's
// command line as parameters (`?archive=URL` and `?host=HOST[:PORT]`, each repeatable,
// `?view= ?S= ?T= ?O= ?t= ?Z= ?z`, state/page-params.ts) or, by default, the bundled demo
// archive (`?empty` opens nothing); a dashboard link (`#dash=…`) reopens its own sources.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { readPageParams } from './state/page-params';
import { openFromPage, restoreFromAddress, startUrlSync } from './state/url-sync';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// A dashboard in the address (`#dash=…`, issue 8) takes precedence over the parameters.
const restoring = restoreFromAddress(location.hash) ?? openFromPage(readPageParams(location.search), new URL('demo/pmdash-demo', document.baseURI).href);
// From then on the address follows the dashboard.
void restoring.finally(() => startUrlSync());
