// What the middle of the page says while nothing is open (issue 13 item 8): what to drop,
// where PCP keeps its archives, the other ways in, and where the shortcuts are.
import { useRef } from 'react';
import { openFiles, openUrl, pickFolder } from './open-sources';
import { readPicked } from './read-drop';
import './sources.css';

export function EmptyState({ onShortcuts }: { onShortcuts: () => void }) {
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  return (
    <div className="empty-state" data-testid="empty-state">
      <h2>Nothing is open</h2>
      <p>
        <b>Drop PCP archives anywhere on this page</b>: every file of an archive — <code>NAME.meta</code>, <code>NAME.index</code> and the
        volumes <code>NAME.0</code>, <code>NAME.1</code> … (compressed <code>.xz</code>, <code>.gz</code>, <code>.bz2</code> too) — or a whole
        folder. Several archives of one host open as one timeline; other hosts get sources of their own.
      </p>
      <p>
        pmlogger keeps its archives in <code data-testid="pmlogger-dir">/var/log/pcp/pmlogger/HOST</code>, one folder per host with an archive
        per day (e.g. <code>20240101.00.10.meta</code>). pmchart view files can be dropped too.
      </p>
      <div className="empty-actions">
        <button type="button" onClick={() => files.current?.click()}>Choose archive files…</button>
        <button type="button" onClick={() => void pickFolder(() => folder.current?.click())}>Choose a folder…</button>
        <button type="button" onClick={() => void openUrl(new URL('demo/pmdash-demo', document.baseURI).href)}>Open the demo archive</button>
        <input ref={files} type="file" multiple hidden onChange={(e) => { if (e.target.files) void openFiles(readPicked(e.target.files)); e.target.value = ''; }} />
        <input ref={folder} type="file" hidden {...{ webkitdirectory: '' }} onChange={(e) => { if (e.target.files) void openFiles(readPicked(e.target.files)); e.target.value = ''; }} />
      </div>
      <p className="muted">
        The Sources panel also opens an archive by URL and connects live to a pmcd host. Press <kbd>?</kbd> or{' '}
        <button type="button" className="linklike" onClick={onShortcuts}>see every shortcut</button>.
      </p>
    </div>
  );
}
