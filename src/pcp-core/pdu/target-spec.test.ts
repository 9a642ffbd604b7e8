import { describe, expect, it } from 'vitest';
import { bridgeUrl, formatTargetSpec, parseTargetSpec } from './target-spec';

describe('target specs', () => {
  it('parses HOST[:PORT][@PROXY[:PORT]] with PCP default ports, IPv6 in brackets', () => {
    expect(parseTargetSpec('localhost')).toEqual({ host: 'localhost', port: 44321 });
    expect(parseTargetSpec('db1:4000@gw')).toEqual({ host: 'db1', port: 4000, proxy: { host: 'gw', port: 44322 } });
    expect(formatTargetSpec(parseTargetSpec('[::1]'))).toBe('[::1]:44321');
    expect(formatTargetSpec(parseTargetSpec('10.0.0.7@localhost:1'))).toBe('10.0.0.7:44321@localhost:1');
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'a@b@c', 'host:0', 'host:70000', 'ho st', 'host:port', '@proxy', 'http://x']) {
      expect(() => parseTargetSpec(bad), bad).toThrow(/bad/);
    }
  });

  it('builds the bridge URL from the page origin', () => {
    expect(bridgeUrl('http://127.0.0.1:8044/')).toBe('ws://127.0.0.1:8044/pmcd');
    expect(bridgeUrl('https://dash.example.org/app/', 'db1@gw')).toBe('wss://dash.example.org/pmcd?target=db1%3A44321%40gw%3A44322');
  });
});
