import { describe, expect, it } from 'vitest';
import type { FleetHost } from '../../pcp-core/fleet';
import { filterHosts, formatUtc, labelTexts, parseUtc } from './fleet-state';

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
});
