import { describe, expect, it } from 'vitest';
import { envProxy, envTimeoutMs, parseHostSpec, pmcdPorts } from './host-spec';

const ENV = { PMCD_SOCKET: '/s/pmcd.socket' };

describe('parseHostSpec', () => {
  it('reads libpcp\'s forms', () => {
    expect(parseHostSpec('db1', {})).toEqual({ kind: 'tcp', host: 'db1', ports: [44321] });
    expect(parseHostSpec('db1:1,2', {})).toEqual({ kind: 'tcp', host: 'db1', ports: [1, 2] });
    expect(parseHostSpec('pcp://db1:7/', {})).toEqual({ kind: 'tcp', host: 'db1', ports: [7] });
    expect(parseHostSpec('[::1]:9@px', {})).toEqual({ kind: 'tcp', host: '::1', ports: [9], proxy: { host: 'px', port: 44322 } });
    expect(parseHostSpec('local:', ENV)).toEqual({ kind: 'local', path: '/s/pmcd.socket' });
    expect(parseHostSpec('unix://run/x', ENV)).toEqual({ kind: 'unix', path: '/run/x' });
    expect(parseHostSpec('unix:/run/x', ENV)).toEqual({ kind: 'unix', path: '/run/x' });
  });
  it('takes PMCD_PORT and PMPROXY_HOST/PORT for a plain host', () => {
    expect(parseHostSpec('db1', { PMCD_PORT: '5,0x10', PMPROXY_HOST: 'px', PMPROXY_PORT: '99' })).toEqual({ kind: 'tcp', host: 'db1', ports: [5, 16], proxy: { host: 'px', port: 99 } });
    expect(pmcdPorts({ PMCD_PORT: '5,x' })).toEqual([44321]);
    expect(envProxy({})).toBeUndefined();
  });
  it.each(['pcps://db1', 'db1:x', 'a@b@c', 'pcp://db1?user=me', 'db 1', 'unix:/a:b'])('refuses %s, naming it', (spec) => {
    expect(() => parseHostSpec(spec, ENV)).toThrow(spec);
  });
});

describe('envTimeoutMs', () => {
  it('reads seconds as strtod, in whole microseconds; ignores bad values with a warning', () => {
    const warnings: string[] = [];
    const warn = (t: string): void => void warnings.push(t);
    expect(envTimeoutMs({ PMCD_REQUEST_TIMEOUT: '2.5' }, 'PMCD_REQUEST_TIMEOUT', 10_000, warn)).toBe(2500);
    expect(envTimeoutMs({ PMCD_REQUEST_TIMEOUT: '0.0000005' }, 'PMCD_REQUEST_TIMEOUT', 10_000, warn)).toBe(0);
    expect(envTimeoutMs({}, 'PMCD_CONNECT_TIMEOUT', 5000, warn)).toBe(5000);
    expect(envTimeoutMs({ PMCD_CONNECT_TIMEOUT: '-1' }, 'PMCD_CONNECT_TIMEOUT', 5000, warn)).toBe(5000);
    expect(envTimeoutMs({ PMCD_CONNECT_TIMEOUT: '3s' }, 'PMCD_CONNECT_TIMEOUT', 5000, warn)).toBe(5000);
    expect(warnings).toEqual(["ignored bad PMCD_CONNECT_TIMEOUT = '-1'", "ignored bad PMCD_CONNECT_TIMEOUT = '3s'"]);
  });
});
