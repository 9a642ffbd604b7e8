import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { makeHostCheck, parsePublicHost } from './host-check';

const req = (host: string | undefined): IncomingMessage => ({ headers: host === undefined ? {} : { host } }) as IncomingMessage;
const passes = (check: ReturnType<typeof makeHostCheck>, host: string | undefined): boolean => check(req(host)) === undefined;

describe('the Host rule', () => {
  const check = makeHostCheck({ listenHost: 'localhost', publicHosts: ['dash.example.org', 'gw.example.org:8443', 'proxy.example.org:443'], origins: ['https://app.example.net', 'http://dev.example.net:5173'] }, () => '127.0.0.1');

  it('admits loopback names and addresses on any port', () => {
    for (const h of ['localhost', 'localhost:8044', 'LOCALHOST:5173', 'localhost.:8044', '127.0.0.1:8044', '127.1.2.3', '[::1]:8044', '[::1]']) expect(passes(check, h), h).toBe(true);
  });

  it('refuses a rebound foreign name, a missing Host and anything that is not host[:port]', () => {
    for (const h of [undefined, '', 'evil.example:8044', 'evil.example', '127.0.0.1.evil.example', 'evil.example@127.0.0.1', 'localhost/x', 'localhost:99999', '[::2]:8044', 'localhost.evil.example']) expect(passes(check, h), String(h)).toBe(false);
    expect(check(req('evil.example:8044'))).toEqual({ status: 403, reason: "Host 'evil.example:8044' is not a name this server answers to (see --public-host)" });
    expect(check(req(undefined))).toEqual({ status: 403, reason: 'missing Host header' });
  });

  it('admits --public-host names, on their port when one is given (a default port may be left out)', () => {
    expect(passes(check, 'dash.example.org')).toBe(true);
    expect(passes(check, 'Dash.Example.org:8044')).toBe(true);
    expect(passes(check, 'gw.example.org:8443')).toBe(true);
    expect(passes(check, 'gw.example.org:8444')).toBe(false);
    expect(passes(check, 'gw.example.org')).toBe(false);
    expect(passes(check, 'proxy.example.org')).toBe(true);
  });

  it('admits the host of each --origin on that origin’s port', () => {
    expect(passes(check, 'app.example.net')).toBe(true);
    expect(passes(check, 'app.example.net:443')).toBe(true);
    expect(passes(check, 'app.example.net:8044')).toBe(false);
    expect(passes(check, 'dev.example.net:5173')).toBe(true);
    expect(passes(check, 'dev.example.net')).toBe(false);
  });

  it('admits the bound address and the --host name; every interface address when bound to a wildcard', () => {
    expect(passes(makeHostCheck({ listenHost: '192.0.2.7' }, () => '192.0.2.7'), '192.0.2.7:8044')).toBe(true);
    expect(passes(makeHostCheck({ listenHost: 'box.lan' }, () => '192.0.2.7'), 'box.lan:8044')).toBe(true);
    expect(passes(makeHostCheck({ listenHost: 'box.lan' }, () => '192.0.2.7'), '192.0.2.8:8044')).toBe(false);
    const wildcard = makeHostCheck({ listenHost: '::' }, () => '::');
    for (const i of Object.values(networkInterfaces()).flatMap((l) => l ?? [])) {
      const host = i.family === 'IPv6' ? `[${i.address.replace(/%.*$/, '')}]` : i.address;
      expect(passes(wildcard, `${host}:8044`), host).toBe(true);
    }
    expect(passes(wildcard, 'evil.example:8044')).toBe(false);
  });

  it('parses NAME[:PORT] and refuses anything else', () => {
    expect(parsePublicHost('Dash.Example.org:8044')).toEqual({ hostname: 'dash.example.org', port: '8044' });
    for (const bad of ['http://dash.example.org', 'dash.example.org/', 'a b', 'x:0', 'x:65536', '']) expect(() => parsePublicHost(bad), bad).toThrow(/bad public host/);
  });
});
