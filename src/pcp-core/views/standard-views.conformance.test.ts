// pmdash's standard views through pmchart's own parser: each one, written by formatView, is
// accepted by `pmchart -C`; with `-C -C` (every plot resolved against the local pmcd,
// instance patterns compiled, colours checked) the only complaints allowed are metrics this
// host does not have.
import { describe, expect, it } from 'vitest';
import { inBatches, pmchartCheckText } from '../../../test/pmchart-check';
import { STANDARD_VIEWS } from './standard-views';
import { formatView } from './view-serializer';

describe('standard views', () => {
  it('are accepted by pmchart -C and -C -C', async () => {
    const results = await inBatches(STANDARD_VIEWS, 2, async (s) => {
      const text = formatView(s.view);
      const syntax = await pmchartCheckText(s.name, text, 1);
      const metrics = await pmchartCheckText(s.name, text, 2);
      return { name: s.name, syntax, metrics };
    });
    for (const r of results) expect({ name: r.name, status: r.syntax.status, messages: r.syntax.messages }).toEqual({ name: r.name, status: 0, messages: '' });
    const complaints = results.flatMap((r) => r.metrics.messages.split('\n').filter((l) => l.trim() !== '').map((l) => `${r.name}: ${l}`));
    // pmchart prints each failed plot as "Failed to plot metric "m" for" / "host local:" / reason.
    const unexpected = complaints.filter((l) => !/Failed to plot metric|^[^:]+: host |Unknown metric name|Error: .*\[\d+\] *$/.test(l));
    expect(unexpected).toEqual([]);
    // Most views resolve completely on any Linux host.
    const clean = results.filter((r) => r.metrics.status === 0).map((r) => r.name);
    for (const n of ['Overview', 'CPU', 'Loadavg', 'Disk', 'Memory', 'Netbytes', 'Iostat', 'Filesystem', 'Schemes']) expect(clean).toContain(n);
  });
});
