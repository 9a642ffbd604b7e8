// The one place for notices (issue 13 item 6), under the header: the messages of notices.ts
// (views, links, exports) and the state of every source that needs attention, each source
// once, as a short sentence naming its file, URL or host (for a corrupt record, the volume and
// byte offset the engine reports), with the error's code and full text on demand. The area
// collapses to one line; the sources panel and charts show no second copy of these.
import { useState } from 'react';
import { dash, useDash } from '../store';
import type { SourceEntry } from '../state/model';
import type { EngineError } from '../../workers/engine-types';
import { connectionText } from '../sources/connection-text';
import { dismiss, useNotices } from './notices';
import './notices.css';

interface Item {
  readonly key: string;
  readonly kind: 'error' | 'warning' | 'info';
  readonly text: string;
  readonly details?: string;
  readonly sourceId?: string;
  readonly dismiss?: () => void;
}

/** What the user gave for a source: the URL, the host, or the dropped file names. */
export function originName(s: SourceEntry): string {
  switch (s.origin.kind) {
    case 'url':
      return s.origin.url;
    case 'live':
      return s.origin.host;
    case 'files':
      return s.origin.names.length === 1 ? (s.origin.names[0] ?? s.label) : s.label;
  }
}

function detailsOf(e: EngineError): string {
  return `${e.code}: ${e.message}${e.context ? `\nat ${e.context}` : ''}`;
}

/** The sentence for an error: what failed, why, and where when the engine says more. */
function sentence(what: string, e: EngineError): string {
  const where = e.context && e.context !== what && !what.endsWith(e.context) ? ` (${e.context})` : '';
  return `${what}: ${e.message}${where}`;
}

/** The code of the warnings pmlogcheck would give (the core's desc-check.ts), whose text names the file already. */
const PMLOGCHECK = 'pmlogcheck';

function warningLine(w: EngineError): string {
  return w.code === PMLOGCHECK || !w.context || w.message.includes(w.context) ? w.message : `${w.message} (${w.context})`;
}

function sourceItems(sources: readonly SourceEntry[]): Item[] {
  const out: Item[] = [];
  for (const s of sources) {
    const name = originName(s);
    if (s.status === 'failed' && s.error) {
      out.push({ key: `${s.id}:failed`, kind: 'error', sourceId: s.id, text: `Could not open ${sentence(name, s.error)}`, details: detailsOf(s.error), dismiss: () => dash().forgotSource(s.id) });
    }
    if (s.status === 'ready' && s.damage) {
      out.push({ key: `${s.id}:damage`, kind: 'error', sourceId: s.id, text: `Reading ${sentence(name, s.damage)}`, details: detailsOf(s.damage) });
    }
    const c = s.connection;
    if (s.status === 'ready' && c && c.state !== 'connected' && c.state !== 'closed') {
      out.push({ key: `${s.id}:connection`, kind: 'warning', sourceId: s.id, text: `Live ${name}: ${connectionText(c)}`, details: c.error ? detailsOf(c.error) : undefined });
    }
    const warnings = s.status === 'ready' ? (s.summary?.warnings ?? []) : [];
    const first = warnings[0];
    if (first) {
      // One row per source however many there are: the first in full, all of them on demand.
      const checks = warnings.every((w) => w.code === PMLOGCHECK) ? ", as pmlogcheck reports them" : '';
      const count = warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`;
      const more = warnings.length > 1 ? ` (and ${warnings.length - 1} more)` : '';
      out.push({ key: `${s.id}:warnings`, kind: 'warning', sourceId: s.id, text: `${name} opened with ${count}${checks}: ${warningLine(first)}${more}`, details: warnings.map(warningLine).join('\n') });
    }
  }
  return out;
}

/** One notice on one line; its details (code, full text, where) open below it on demand. */
function NoticeRow({ n }: { n: Item }) {
  const [more, setMore] = useState(false);
  return (
    <li className={`notice ${n.kind}`} data-testid="notice" data-kind={n.kind} data-source={n.sourceId}>
      <pre className="notice-text">{n.text}</pre>
      {n.details && (
        <button type="button" className="small notice-more" aria-expanded={more} onClick={() => setMore(!more)}>
          details
        </button>
      )}
      {n.dismiss && <button type="button" className="small" aria-label="Dismiss" onClick={n.dismiss}>✕</button>}
      {more && n.details && <pre className="notice-details" data-testid="notice-details">{n.details}</pre>}
    </li>
  );
}

export function NoticesList() {
  const notices = useNotices();
  const sources = useDash((s) => s.sources);
  const [open, setOpen] = useState(true);
  const items: Item[] = [...sourceItems(sources), ...notices.map((n) => ({ key: `n${n.id}`, kind: n.kind, text: n.text, details: n.details, dismiss: () => dismiss(n.id) }))];
  if (items.length === 0) return null;
  const worst = items.some((i) => i.kind === 'error') ? 'error' : items.some((i) => i.kind === 'warning') ? 'warning' : 'info';
  const clear = items.filter((i) => i.dismiss);
  return (
    <section className={`notices-area ${worst}`} data-testid="notices" aria-label="Notices">
      <div className="notices-head">
        <button type="button" className="notices-toggle" data-testid="notices-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? '▾' : '▸'} {items.length === 1 ? '1 notice' : `${items.length} notices`}
        </button>
        {!open && <span className="notices-first" title={items[0]?.text}>{items[0]?.text.split('\n')[0]}</span>}
        {clear.length > 1 && (
          <button type="button" className="small" data-testid="notices-clear" onClick={() => clear.forEach((i) => i.dismiss?.())}>
            Dismiss all
          </button>
        )}
      </div>
      {open && (
        <ul className="notices" aria-live="polite">
          {items.map((n) => <NoticeRow key={n.key} n={n} />)}
        </ul>
      )}
    </section>
  );
}
