// Recent sources, remembered by the browser (local storage): every archive opened from a URL
// (the URL field, `?archive=`, the bundled demo, a dashboard link) and every live host reached
// through the bridge, newest first, once each, at most RECENT_SOURCES_MAX. open-sources.ts
// remembers a source once it has opened; the sources panel lists them to open again.
// Dropped or picked local files are never remembered: a page cannot reopen files from the
// user's disk by name (the browser only hands them over when the user picks or drops them).
// Like recentDashboards() in url-sync.ts, storage that is off, full or holds something else
// is treated as empty and never breaks the page. A tiny external store: the panel re-renders
// through subscribeRecentSources (this page's changes and, via `storage` events, other tabs').

export const RECENT_SOURCES_KEY = 'pmdash.recentSources';
export const RECENT_SOURCES_MAX = 10;

/** A source that a page can open again by itself. */
export type RecentSource =
  | { readonly kind: 'url'; readonly url: string; readonly savedMs: number }
  | { readonly kind: 'live'; readonly host: string; readonly savedMs: number };

/** What to remember: the source without its time. */
export type RecentSourceTarget = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'live'; readonly host: string };

/** The URL or host: what identifies an entry within its kind. */
export function recentTarget(s: RecentSourceTarget): string {
  return s.kind === 'url' ? s.url : s.host;
}

/** What identifies a source across kinds (a URL and a host with the same text differ). */
export function recentKey(s: RecentSourceTarget): string {
  return `${s.kind} ${recentTarget(s)}`;
}

function sameSource(a: RecentSourceTarget, b: RecentSourceTarget): boolean {
  return recentKey(a) === recentKey(b);
}

function isRecentSource(r: unknown): r is RecentSource {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  if (typeof o.savedMs !== 'number' || !Number.isFinite(o.savedMs)) return false;
  return (o.kind === 'url' && typeof o.url === 'string' && o.url !== '') || (o.kind === 'live' && typeof o.host === 'string' && o.host !== '');
}

function readRaw(): string | null {
  try {
    return localStorage.getItem(RECENT_SOURCES_KEY);
  } catch {
    // No storage (off, private mode, not a browser): nothing remembered.
    return null;
  }
}

function parse(raw: string | null): readonly RecentSource[] {
  if (raw === null) return [];
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return [];
    // Keep only well-formed entries, once each, in their stored order.
    const out: RecentSource[] = [];
    for (const r of v) {
      if (isRecentSource(r) && !out.some((o) => sameSource(o, r))) {
        out.push(r.kind === 'url' ? { kind: 'url', url: r.url, savedMs: r.savedMs } : { kind: 'live', host: r.host, savedMs: r.savedMs });
      }
    }
    return out.slice(0, RECENT_SOURCES_MAX);
  } catch {
    return [];
  }
}

/** The last list read, so equal storage gives the same array (useSyncExternalStore). */
let cache: { readonly raw: string | null; readonly list: readonly RecentSource[] } | undefined;

/** The remembered sources, newest first. */
export function recentSources(): readonly RecentSource[] {
  const raw = readRaw();
  if (cache?.raw !== raw) cache = { raw, list: parse(raw) };
  return cache.list;
}

const listeners = new Set<() => void>();

function write(list: readonly RecentSource[]): void {
  try {
    localStorage.setItem(RECENT_SOURCES_KEY, JSON.stringify(list));
  } catch {
    // Storage off or full: the source is open all the same, just not remembered.
  }
  for (const l of listeners) l();
}

/** Remembers a source as the newest; an earlier entry for it moves to the top. */
export function rememberSource(s: RecentSourceTarget, nowMs: number = Date.now()): void {
  const entry: RecentSource = s.kind === 'url' ? { kind: 'url', url: s.url, savedMs: nowMs } : { kind: 'live', host: s.host, savedMs: nowMs };
  write([entry, ...recentSources().filter((r) => !sameSource(r, s))].slice(0, RECENT_SOURCES_MAX));
}

/** Forgets a source (the panel's ✕). */
export function forgetSource(s: RecentSourceTarget): void {
  const list = recentSources();
  if (list.some((r) => sameSource(r, s))) write(list.filter((r) => !sameSource(r, s)));
}

/** Calls `cb` whenever the list may have changed, here or in another tab. */
export function subscribeRecentSources(cb: () => void): () => void {
  listeners.add(cb);
  const onStorage = (e: StorageEvent): void => {
    if (e.key === null || e.key === RECENT_SOURCES_KEY) cb();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(cb);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}
