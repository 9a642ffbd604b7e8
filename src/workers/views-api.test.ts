// The engine's view calls: pmchart's messages with the file name, colours resolved for the
// UI, writing refusals with the reason, and the standard views.
import { describe, expect, it } from 'vitest';
import { EngineApi } from './engine-api';

describe('engine view calls', () => {
  const api = new EngineApi();

  it('reads a view with its messages and resolved colours', async () => {
    const r = await api.readView('MyView', '#kmchart\nversion 1\nscheme S grey50 rgbi:1/0/0\nchart style plot\n\tplot color NavyBlue metric a\n\tplot legend\n');
    expect(r.errors).toEqual(['MyView[7] Syntax error: expecting "<legend title>", found End-of-Line']);
    expect(r.colors).toEqual({ grey50: '#7f7f7f', 'rgbi:1/0/0': '#ff0000', NavyBlue: '#000080' });
    expect(r.view.tabs[0]?.charts[0]?.plots).toHaveLength(1);
  });

  it('writes views and refuses what the grammar cannot say', async () => {
    const view = { format: 'kmchart' as const, version: '1', globals: {}, schemes: [], tabs: [{ label: 'a "b" c', charts: [] }] };
    await expect(api.writeView(view)).rejects.toMatchObject({ context: 'view', message: expect.stringMatching(/double quote/) as unknown });
    const ok = await api.writeView({ ...view, tabs: [{ label: 'T', charts: [{ style: 'line', legend: true, antialiasing: true, plots: [{ optional: false, metric: 'hinv.ncpu', instances: { kind: 'all' } }] }] }] });
    expect(ok).toBe('#kmchart\nversion 1\n\ntab "T"\n\nchart style plot\n\tplot metric hinv.ncpu\n');
  });

  it('lists the standard views', async () => {
    const names = (await api.standardViews()).map((v) => v.name);
    expect(names).toContain('Overview');
    expect(names).toContain('Iostat');
  });
});
