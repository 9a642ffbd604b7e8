// Standard views: every one round-trips through formatView/parseView unchanged, and they
// carry the facts of docs/pmchart-reference.md §1c (spot checks).
import { describe, expect, it } from 'vitest';
import { STANDARD_VIEWS, standardView } from './standard-views';
import { parseView } from './view-parser';
import { formatView } from './view-serializer';

describe('STANDARD_VIEWS', () => {
  it.each(STANDARD_VIEWS.map((s) => [s.name, s] as const))('%s round-trips', (_name, s) => {
    const r = parseView(formatView(s.view));
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.view).toEqual(s.view);
  });

  it('has pmchart’s standard set', () => {
    expect(STANDARD_VIEWS.map((s) => s.name).sort()).toEqual(['CPU', 'Disk', 'Diskbytes', 'Filesystem', 'Iostat', 'Iostat.DM', 'Iostat.MD', 'Loadavg', 'MemAvailable', 'Memory', 'NFS2', 'NFS3', 'Netbytes', 'Netpackets', 'Overview', 'PMCD', 'Paging', 'Schemes', 'Sockets', 'Swap', 'Syscalls', 'vCPU']);
  });

  it('keeps the facts', () => {
    expect(standardView('Overview')?.view.tabs[0]?.charts.map((c) => c.style)).toEqual(['utilization', 'line', 'stacking', 'stacking', 'stacking']);
    expect(standardView('CPU')?.view.tabs[0]?.charts[0]?.plots.filter((p) => p.optional).map((p) => p.metric)).toEqual(['kernel.all.cpu.nice', 'kernel.all.cpu.intr', 'kernel.all.cpu.wait.total', 'kernel.all.cpu.steal']);
    expect(standardView('Iostat')?.view.tabs.map((t) => t.charts.length)).toEqual([4, 4]);
    expect(standardView('Filesystem')?.view.tabs[0]?.charts[0]?.plots[0]?.instances).toEqual({ kind: 'not-matching', pattern: '/dev/shm|/dev$' });
    expect(standardView('Schemes')?.view.schemes).toHaveLength(5);
  });
});
