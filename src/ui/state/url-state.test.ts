// The URL snapshot: a dashboard survives take → encode → decode → layout; damaged or foreign
// links are repaired field by field with warnings, or refused with a reason.
import { describe, expect, it } from 'vitest';
import type { ChartSpec, SourceEntry, TabSpec } from './model';
import { seriesKey } from './model';
import { archiveBaseOf, decodeFragment, encodeSnapshot, filesMatch, restoreSnapshot, snapshotLayout, takeSnapshot, type SnapshotInput } from './url-state';
import { hasTimeParams, isViewUrl, readPageParams } from './page-params';

const src = (id: string, origin: SourceEntry['origin']): SourceEntry => ({ id, origin, label: id, status: 'ready' });
const cpu: ChartSpec = {
  id: 'c1', title: 'CPU [%h]', style: 'utilization', yScale: { mode: 'auto' }, legend: true, rate: true,
  plots: [
    { id: 'p1', sourceId: 's2', metric: 'kernel.all.cpu.user', instances: { kind: 'all' }, legend: 'User', color: '#2d2de2' },
    { id: 'p2', sourceId: 's2', metric: 'kernel.all.cpu.idle', instances: { kind: 'all' }, optional: true },
  ],
  hidden: [seriesKey('p2', '')],
};
const disks: ChartSpec = {
  id: 'c7', title: 'Disks, "busy"', style: 'stacked-bar', yScale: { mode: 'fixed', min: 0, max: 100 }, legend: false, rate: false,
  plots: [
    { id: 'p9', sourceId: 's3', metric: 'disk.dev.util', instances: { kind: 'matching', pattern: '^(sd|vd)' }, instanceColors: { sdb: '#00aa00' } },
    { id: 'p10', sourceId: 's2', metric: 'busy', expr: 'disk.all.avactive / 1000', instances: { kind: 'list', names: ['a b', 'c,d'] } },
  ],
  hidden: [seriesKey('p9', 'sda'), seriesKey('p9', 'sdb')],
};
const state: SnapshotInput = {
  sources: [src('s1', { kind: 'files', names: ['x.meta'] }), src('s2', { kind: 'url', url: 'http://h/demo/pmdash-demo' }), src('s3', { kind: 'live', host: 'localhost' })],
  tabs: [{ id: 't0', label: 'Overview', chartIds: ['c1'] }, { id: 't3', label: 'Disks ✓', chartIds: ['c7'] }] as TabSpec[],
  activeTabId: 't3',
  charts: { c1: cpu, c7: disks },
  positionMs: 1700000123456.5,
  intervalMs: 2000,
  intervalFixed: true,
  windowMs: 120000,
  zone: 'utc',
  bounds: undefined,
  liveIntervalMs: 1000,
  liveHistoryMs: 60000,
};

describe('url state', () => {
  it('keeps a resized chart height and drops an absurd one', () => {
    const snap = takeSnapshot({ ...state, charts: { c1: { ...cpu, heightPx: 240 }, c7: disks } });
    const back = decodeFragment(`#${encodeSnapshot(snap)}`);
    expect(back?.ok && back.snapshot.tabs[0]?.charts[0]?.height).toBe(240);
    expect(back?.ok && back.snapshot.tabs[1]?.charts[0]?.height).toBeUndefined();
    const layout = snapshotLayout(snap, ['s7', 's8']);
    expect(Object.values(layout.charts).map((c) => c.heightPx)).toEqual([240, undefined]);
    const bad = restoreSnapshot({ ...snap, tabs: [{ label: 'x', charts: [{ title: 't', style: 'line', plots: [], height: 1e9 }] }] });
    expect(bad.ok && bad.snapshot.tabs[0]?.charts[0]?.height).toBeUndefined();
  });
  it('round-trips a dashboard through the fragment', () => {
    const snap = takeSnapshot(state);
    // Only sources some chart uses, in first-use order.
    expect(snap.sources).toEqual([{ url: 'http://h/demo/pmdash-demo' }, { host: 'localhost' }]);
    const fragment = encodeSnapshot(snap);
    expect(fragment).toMatch(/^dash=[A-Za-z0-9_-]+$/);
    const back = decodeFragment(`#${fragment}`);
    expect(back).toEqual({ ok: true, snapshot: snap, warnings: [] });
    const layout = snapshotLayout(snap, ['s7', 's8']);
    const [t1, t2] = layout.tabs;
    expect(layout.tabs.map((t) => t.label)).toEqual(['Overview', 'Disks ✓']);
    expect(layout.activeTabId).toBe(t2?.id);
    const c = layout.charts[t2?.chartIds[0] ?? ''];
    expect(c).toMatchObject({ title: 'Disks, "busy"', style: 'stacked-bar', yScale: { mode: 'fixed', min: 0, max: 100 }, legend: false, rate: false });
    expect(c?.plots.map((p) => [p.sourceId, p.metric, p.expr, p.instances])).toEqual([
      ['s8', 'disk.dev.util', undefined, { kind: 'matching', pattern: '^(sd|vd)' }],
      ['s7', 'busy', 'disk.all.avactive / 1000', { kind: 'list', names: ['a b', 'c,d'] }],
    ]);
    expect(c?.plots[0]?.instanceColors).toEqual({ sdb: '#00aa00' });
    expect(c?.hidden).toEqual([seriesKey(c?.plots[0]?.id ?? '', 'sda'), seriesKey(c?.plots[0]?.id ?? '', 'sdb')]);
    expect(layout.charts[t1?.chartIds[0] ?? '']?.hidden).toHaveLength(1);
    expect(snap.time).toEqual({ positionMs: 1700000123456.5, intervalMs: 2000, intervalFixed: true, windowMs: 120000, zone: 'utc', liveIntervalMs: 1000, liveHistoryMs: 60000 });
  });

  it('repairs what it can and says what it dropped', () => {
    const r = restoreSnapshot({
      v: 1,
      sources: [{ url: 'http://a' }, 42],
      tabs: [{ label: 'T', charts: [{ title: 7, style: 'pie', yScale: { mode: 'fixed', min: 5, max: 1 }, plots: [{ s: 0, metric: 'm', instances: { kind: 'all' } }, { s: 9, metric: 'x', instances: { kind: 'all' } }, { s: 0, metric: 'y', instances: { kind: 'matching' } }], hidden: [[0, 'a'], [5, 'b'], 'junk'] }, 'nope'] }],
      activeTab: 3,
      time: { positionMs: 'soon', intervalMs: -5, zone: 'mars', bounds: { startMs: 10, endMs: 5 } },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.snapshot.tabs[0]?.charts).toEqual([{ title: '', style: 'line', yScale: { mode: 'auto' }, legend: true, rate: true, plots: [{ s: 0, metric: 'm', instances: { kind: 'all' } }], hidden: [[0, 'a']] }]);
    expect(r.snapshot.activeTab).toBe(0);
    expect(r.snapshot.time).toEqual({ zone: 'archive' });
    expect(r.warnings).toHaveLength(5);
  });

  it('refuses what is not a dashboard or comes from a newer pmdash', () => {
    expect(restoreSnapshot('x')).toEqual({ ok: false, error: 'the link holds no dashboard' });
    expect(restoreSnapshot({ v: 2 })).toMatchObject({ ok: false });
    expect(JSON.stringify(restoreSnapshot({ v: 2 }))).toMatch(/newer pmdash/);
    expect(restoreSnapshot({ v: 0 })).toMatchObject({ ok: false });
    expect(JSON.stringify(decodeFragment('#dash=%%%'))).toMatch(/"ok":false.*cannot be read/);
    expect(decodeFragment('#other=1')).toBeUndefined();
  });

  it('drops plots of sources that could not be reopened', () => {
    const layout = snapshotLayout(takeSnapshot(state), [undefined, 's4']);
    expect(layout.dropped).toBe(3);
    expect(Object.values(layout.charts).flatMap((c) => c.plots.map((p) => p.sourceId))).toEqual(['s4']);
  });
});

describe('links over dropped files', () => {
  it('name the archive and host, and bind a drop of the same archive from the same host', () => {
    const summary = { handle: 1, kind: 'archive' as const, name: '20180416.10.00', hostname: 'brolley-t530', timezone: 'EDT+4', zoneinfo: '', startMs: 0, endMs: 1, intervalMs: 1, metricCount: 1, archives: ['20180416.10.00'], warnings: [] };
    const files = ['20180416.10.00.meta.xz', '20180416.10.00.index', '20180416.10.00.0.xz'];
    const st: SnapshotInput = { ...state, sources: [{ ...src('s2', { kind: 'files', names: files }), summary }, state.sources[2]] };
    const snap = takeSnapshot(st);
    expect(snap.sources[0]).toEqual({ files, name: '20180416.10.00', hostname: 'brolley-t530' });
    const back = decodeFragment(`#${encodeSnapshot(snap)}`);
    expect(back?.ok && back.snapshot.sources[0]).toEqual(snap.sources[0]);
    const want = { files, name: '20180416.10.00', hostname: 'brolley-t530' };
    expect(filesMatch(want, { name: '20180416.10.00', hostname: 'brolley-t530', files: ['a/20180416.10.00.meta.xz'] })).toBe(true);
    expect(filesMatch(want, { name: '20180416.10.00', hostname: 'other', files: [] })).toBe(false);
    expect(filesMatch(want, { name: '20180102', hostname: 'brolley-t530', files: [] })).toBe(false);
    // Older links name only the files.
    expect(filesMatch({ files }, { name: 'x', hostname: 'y', files: ['dir/20180416.10.00.3.xz'] })).toBe(true);
    expect(archiveBaseOf('d/20180416.10.00.meta.xz')).toBe('20180416.10.00');
    expect(archiveBaseOf('20180102.index')).toBe('20180102');
  });

  it('carry a time shift and restore it', () => {
    const summary = { handle: 1, kind: 'archive' as const, name: '20180102', hostname: 'bozo', timezone: 'EST5', zoneinfo: '', startMs: 0, endMs: 1, intervalMs: 1, metricCount: 1, archives: ['20180102'], warnings: [] };
    const files = ['20180102.meta', '20180102.index', '20180102.0'];
    const st: SnapshotInput = { ...state, sources: [{ ...src('s2', { kind: 'files', names: files }), summary, offsetMs: -86_400_000 }, state.sources[2]] };
    const snap = takeSnapshot(st);
    expect(snap.sources[0]).toEqual({ files, name: '20180102', hostname: 'bozo', shift: -86_400_000 });
    const back = decodeFragment(`#${encodeSnapshot(snap)}`);
    expect(back?.ok && back.snapshot.sources[0]).toEqual(snap.sources[0]);
  });
});

describe('page parameters', () => {
  it("read pmchart's command line from the query", () => {
    const p = readPageParams('?archive=a&archive=b&host=h&view=CPU&S=%40%2010%3A30&T=%2B1h&O=-30min&t=10sec&z');
    expect(p).toEqual({ archives: ['a', 'b'], hosts: ['h'], view: 'CPU', start: '@ 10:30', finish: '+1h', origin: '-30min', interval: '10sec', zone: 'archive', empty: false });
    expect(hasTimeParams(p)).toBe(true);
    expect(readPageParams('?Z=UTC&z').zone).toBe('UTC');
    expect(readPageParams('?empty')).toMatchObject({ empty: true, archives: [], view: undefined });
    expect(hasTimeParams(readPageParams('?archive=a'))).toBe(false);
    expect(isViewUrl('CPU')).toBe(false);
    expect(isViewUrl('views/Disk.view')).toBe(true);
    expect(isViewUrl('https://h/v')).toBe(true);
  });
});
