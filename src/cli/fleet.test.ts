// `pmdash fleet` argument handling: the pmproxy address and usage errors (no pmproxy needed).
import { describe, expect, it } from 'vitest';
import { UsageError } from './args';
import { fleetCommand, fleetPmproxy } from './fleet';

const quiet = { stdout: () => undefined, stderr: () => undefined };

describe('pmdash fleet', () => {
  it('finds pmproxy in --pmproxy, else PMPROXY_HOST/PMPROXY_PORT, else localhost:44322', () => {
    expect(fleetPmproxy('px.example.org', {})).toBe('http://px.example.org:44322');
    expect(fleetPmproxy('https://px.example.org/base/', {})).toBe('https://px.example.org/base');
    expect(fleetPmproxy(undefined, { PMPROXY_HOST: 'px', PMPROXY_PORT: '9000' })).toBe('http://px:9000');
    expect(fleetPmproxy(undefined, { PMPROXY_HOST: 'px' })).toBe('http://px:44322');
    expect(fleetPmproxy(undefined, {})).toBe('http://localhost:44322');
    expect(() => fleetPmproxy('ftp://x', {})).toThrow(UsageError);
  });

  it('refuses missing or unknown subcommands and bad options before any request', async () => {
    await expect(fleetCommand.run([], quiet)).rejects.toThrow('a subcommand is needed: hosts, metrics or values');
    await expect(fleetCommand.run(['list'], quiet)).rejects.toThrow("unknown subcommand 'list'");
    await expect(fleetCommand.run(['metrics'], quiet)).rejects.toThrow('metrics needs a PATTERN');
    await expect(fleetCommand.run(['values'], quiet)).rejects.toThrow('values needs a METRIC');
    await expect(fleetCommand.run(['values', 'a.b', '--width', '0', '--host', 'h'], quiet)).rejects.toThrow("bad --width '0'");
    await expect(fleetCommand.run(['values', 'a.b', '--aggregate', 'median', '--host', 'h'], quiet)).rejects.toThrow("bad --aggregate 'median'");
    await expect(fleetCommand.run(['values', 'a.b', '-S', '@2020-01-02', '-T', '@2020-01-01', '--host', 'h'], quiet)).rejects.toThrow('the window is empty');
  });
});
