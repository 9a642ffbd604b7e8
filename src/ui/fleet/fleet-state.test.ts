import { describe, expect, it } from 'vitest';
import type { FleetHost } from '../../pcp-core/fleet';
import { decodeFleetTab, encodeFleetTab, filterHosts, formatUtc, labelTexts, parseUtc, type FleetTab } from './fleet-state';

const hosts: FleetHost[] = [
  { hostname: 'vm00', labels: { hostname: 'vm00', machineid: 'abc', agent: 'sample' }, sources: [] },
  { hostname: 'smash', labels: { hostname: 'smash', groupid: 1000 }, sources: [] },
];

describe('fleet panel state', () => {
  it('filters hosts by name and by label text, every word', () => {
    expect(filterHosts(hosts, '').map((h) => h.hostname)).toEqual(['vm00', 'smash']);
    expect(filterHosts(hosts, 'VM').map((h) => h.hostname)).toEqual(['vm00']);
    expect(filterHosts(hosts, 'groupid:1000').map((h) => h.hostname)).toEqual(['smash']);
    expect(filterHosts(hosts, 'vm00 machineid:abc').map((h) => h.hostname)).toEqual(['vm00']);
    expect(filterHosts(hosts, 'vm00 groupid')).toEqual([]);
  });

  it('shows every label as name:value', () => {
    expect(labelTexts(hosts[0])).toEqual(['hostname:vm00', 'machineid:abc', 'agent:sample']);
    expect(labelTexts(hosts[1])).toEqual(['hostname:smash', 'groupid:1000']);
  });

  it('reads back the UTC text it writes, and rejects other text', () => {
    const ms = Date.UTC(2013, 0, 4, 8, 44, 17);
    expect(formatUtc(ms)).toBe('2013-01-04 08:44:17');
    expect(parseUtc(formatUtc(ms))).toBe(ms);
    expect(parseUtc('2013-01-04T08:44:17.5Z')).toBe(ms + 500);
    expect(parseUtc('yesterday')).toBeNaN();
  });

  it('keeps the fleet tab in the address and reads back only what it can use', () => {
    const tab: FleetTab = { hosts: ['vm00', 'web 1.example'], metric: 'disk.dev.read', aggregate: 'top', topN: 4, drill: 'vm00' };
    const fragment = `#dash=abc&${encodeFleetTab(tab)}`;
    expect(decodeFleetTab(fragment)).toEqual(tab);
    expect(decodeFleetTab(`#${encodeFleetTab({ ...tab, aggregate: 'sum', drill: undefined })}`)).toEqual({ hosts: tab.hosts, metric: tab.metric, aggregate: 'sum', topN: 3 });
    expect(decodeFleetTab('#dash=abc')).toBeUndefined();
    expect(decodeFleetTab('#fleet=%%%')).toBeInstanceOf(Error);
    const bad = (o: unknown): string => `#fleet=${btoa(JSON.stringify(o)).replace(/=+$/, '')}`;
    expect(decodeFleetTab(bad({ h: [], m: 'x' }))).toBeInstanceOf(Error);
    // Unknown aggregate → sum; N out of range → the default; a drill host not among the hosts → none.
    expect(decodeFleetTab(bad({ h: ['a'], m: 'x', a: 'median', n: 1e9, d: 'b' }))).toEqual({ hosts: ['a'], metric: 'x', aggregate: 'sum', topN: 3 });
  });
});
