// Recent sources in local storage: newest first, once each, capped; storage that is corrupt,
// holds something else or is off is ignored and never throws.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetSource, RECENT_SOURCES_KEY, RECENT_SOURCES_MAX, recentSources, rememberSource, subscribeRecentSources } from './recent-sources';

/** An in-memory Storage, as a browser's localStorage behaves for these calls. */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

const demo = { kind: 'url', url: 'http://h/demo/pmdash-demo' } as const;
const other = { kind: 'url', url: 'http://a/archives/20180102' } as const;
const local = { kind: 'live', host: 'localhost' } as const;

describe('recent sources', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is empty at first', () => {
    expect(recentSources()).toEqual([]);
  });

  it('remembers archive URLs and live hosts, newest first, with when', () => {
    rememberSource(demo, 1000);
    rememberSource(local, 2000);
    rememberSource(other, 3000);
    expect(recentSources()).toEqual([
      { ...other, savedMs: 3000 },
      { ...local, savedMs: 2000 },
      { ...demo, savedMs: 1000 },
    ]);
    // Stored under its own key, beside the recent dashboards.
    expect(JSON.parse(storage.getItem(RECENT_SOURCES_KEY) ?? '')).toHaveLength(3);
    expect(storage.getItem('pmdash.recent')).toBeNull();
  });

  it('keeps one entry per source: opening it again moves it to the top', () => {
    rememberSource(demo, 1000);
    rememberSource(local, 2000);
    rememberSource(demo, 3000);
    expect(recentSources()).toEqual([
      { ...demo, savedMs: 3000 },
      { ...local, savedMs: 2000 },
    ]);
    // A URL and a host with the same text are different sources.
    rememberSource({ kind: 'live', host: demo.url }, 4000);
    expect(recentSources()).toHaveLength(3);
  });

  it(`keeps the newest ${RECENT_SOURCES_MAX}`, () => {
    for (let i = 0; i < RECENT_SOURCES_MAX + 5; i++) rememberSource({ kind: 'live', host: `host${i}` }, i);
    const list = recentSources();
    expect(list).toHaveLength(RECENT_SOURCES_MAX);
    expect(list[0]).toEqual({ kind: 'live', host: `host${RECENT_SOURCES_MAX + 4}`, savedMs: RECENT_SOURCES_MAX + 4 });
    expect(list.at(-1)).toEqual({ kind: 'live', host: 'host5', savedMs: 5 });
  });

  it('forgets a source and keeps the others in order', () => {
    rememberSource(demo, 1);
    rememberSource(local, 2);
    rememberSource(other, 3);
    forgetSource(local);
    expect(recentSources().map((r) => r.kind === 'url' ? r.url : r.host)).toEqual([other.url, demo.url]);
    forgetSource({ kind: 'live', host: 'never-seen' });
    expect(recentSources()).toHaveLength(2);
  });

  it('ignores corrupt storage, and remembering over it starts a clean list', () => {
    for (const bad of ['{not json', '"a string"', '{"kind":"url","url":"x","savedMs":1}', 'null', '42']) {
      storage.setItem(RECENT_SOURCES_KEY, bad);
      expect(recentSources()).toEqual([]);
    }
    storage.setItem(RECENT_SOURCES_KEY, '{not json');
    rememberSource(local, 5);
    expect(recentSources()).toEqual([{ ...local, savedMs: 5 }]);
  });

  it('drops malformed and repeated entries but keeps the good ones', () => {
    storage.setItem(RECENT_SOURCES_KEY, JSON.stringify([
      null,
      'localhost',
      { kind: 'files', names: ['a.meta'], savedMs: 1 },
      { kind: 'url', url: 42, savedMs: 1 },
      { kind: 'url', url: '', savedMs: 1 },
      { kind: 'live', host: 'localhost' },
      { kind: 'live', host: 'localhost', savedMs: 9 },
      { kind: 'url', url: demo.url, savedMs: 8, extra: true },
      { kind: 'live', host: 'localhost', savedMs: 7 },
    ]));
    expect(recentSources()).toEqual([
      { ...local, savedMs: 9 },
      { ...demo, savedMs: 8 },
    ]);
  });

  it('returns the same list while storage is unchanged', () => {
    rememberSource(demo, 1);
    expect(recentSources()).toBe(recentSources());
  });

  it('works, remembering nothing, when storage throws', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    expect(() => rememberSource(demo)).not.toThrow();
    expect(recentSources()).toEqual([]);
  });

  it('tells subscribers of changes until they unsubscribe', () => {
    const cb = vi.fn();
    const stop = subscribeRecentSources(cb);
    rememberSource(demo);
    forgetSource(demo);
    expect(cb).toHaveBeenCalledTimes(2);
    stop();
    rememberSource(local);
    expect(cb).toHaveBeenCalledTimes(2);
  });
});
