// Browser entry: mounts the app, then opens what the page address asks for
// (`?archive=URL` and `?host=HOST[:PORT]`, each repeatable) or, by default, the bundled demo
// archive (`?empty` opens nothing); a dashboard link (`#dash=…`) reopens its own sources.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { bridgeUrlFor } from './sources/bridge-url';
import { openLive, openUrl } from './sources/open-sources';
import { restoreFromAddress, startUrlSync } from './state/url-sync';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// A dashboard in the address (`#dash=…`, issue 8) takes precedence over the defaults below.
const restoring = restoreFromAddress(location.hash);
if (!restoring) {
  const params = new URLSearchParams(location.search);
  const archives = params.getAll('archive');
  const hosts = params.getAll('host');
  for (const a of archives) void openUrl(a);
  for (const h of hosts) void openLive(h, bridgeUrlFor(h));
  if (archives.length === 0 && hosts.length === 0 && !params.has('empty')) void openUrl(new URL('demo/pmdash-demo', document.baseURI).href, { isDefault: true });
}
// From then on the address follows the dashboard.
void (restoring ?? Promise.resolve()).finally(() => startUrlSync());
