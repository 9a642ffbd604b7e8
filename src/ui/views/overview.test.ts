// Two live hosts opened together each get a live tab of their own, even when both ask the
// engine for their metrics before either has added its charts (`?host=a&host=b`).
import { describe, expect, it, vi } from 'vitest';
import type { SourceSummary } from '../../workers/engine-types';

const pending: (() => void)[] = [];
vi.mock('../engine-client', () => ({
  // The metric lists arrive only when the test releases them, after both hosts have asked.
  getEngine: () => ({ listMetrics: () => new Promise<string[]>((ok) => pending.push(() => ok(['kernel.all.load', 'hinv.ncpu']))) }),
}));

const { showOverviewFor } = await import('./overview');
const { dash } = await import('../store');

function live(handle: number, hostname: string): SourceSummary {
  return { handle, kind: 'live', name: hostname, hostname, timezone: '', zoneinfo: '', startMs: 0, endMs: 0, intervalMs: 0, metricCount: 2, archives: [], warnings: [] };
}

describe('showOverviewFor with live hosts', () => {
  it('gives each of two hosts opened together its own tab', async () => {
    const empty = dash().tabs.filter((t) => t.chartIds.length === 0).length;
    expect(empty).toBeGreaterThan(0);
    const a = showOverviewFor('s1', live(1, 'a'));
    const b = showOverviewFor('s2', live(2, 'b'));
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    for (const release of pending) release();
    await Promise.all([a, b]);
    const s = dash();
    const tabOf = (sourceId: string) => s.tabs.filter((t) => t.chartIds.some((id) => s.charts[id]?.plots.some((p) => p.sourceId === sourceId)));
    expect(tabOf('s1').map((t) => t.label)).toEqual(['Live a']);
    expect(tabOf('s2').map((t) => t.label)).toEqual(['Live b']);
    for (const t of s.tabs) expect(new Set(t.chartIds.flatMap((id) => s.charts[id]?.plots.map((p) => p.sourceId) ?? [])).size).toBeLessThanOrEqual(1);
  });
});
