// Browser entry: mounts the app, then opens what the page address asks for
// (`?archive=URL`, repeatable) or, by default, the bundled demo archive.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { openUrl } from './sources/open-sources';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

const params = new URLSearchParams(location.search);
const archives = params.getAll('archive');
if (archives.length > 0) for (const a of archives) void openUrl(a);
else if (!params.has('empty')) void openUrl(new URL('demo/pmdash-demo', document.baseURI).href);
