import { describe, expect, it } from 'vitest';
import { EINVAL } from '../errors';
import { encodeHello } from './error-pdu';
import { pmproxyRelay, relayTargetLine } from './pmproxy-relay';
import { ScriptedTransport } from './testing/scripted-transport';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('pmproxy relay handshake (§7)', () => {
  it('names the pmcd as an IPv4 literal, localhost included', () => {
    expect(relayTargetLine('localhost', 44321)).toBe('127.0.0.1 44321\n');
    expect(relayTargetLine('10.1.2.3', 4)).toBe('10.1.2.3 4\n');
    expect(() => relayTargetLine('db1.example.com', 44321)).toThrow(expect.objectContaining({ code: EINVAL }) as Error);
    expect(() => relayTargetLine('300.1.1.1', 44321)).toThrow(/IPv4/);
  });

  it('sends the client line, waits for the server line, names the target, then passes bytes on', async () => {
    const proxy = new ScriptedTransport();
    const relayed = pmproxyRelay(proxy, 'localhost', 44321);
    expect(proxy.sent.map(text)).toEqual(['pmproxy-client 1\n']);
    // pmproxy's answer and pmcd's hello can arrive in one chunk, split anywhere.
    const answer = new Uint8Array([...new TextEncoder().encode('pmproxy-server 1\n'), ...encodeHello(0x0e44)]);
    proxy.deliver(answer.subarray(0, 5));
    proxy.deliver(answer.subarray(5, 30));
    const t = await relayed;
    expect(proxy.sent.map(text)).toEqual(['pmproxy-client 1\n', '127.0.0.1 44321\n']);
    const got: number[] = [];
    t.onData((c) => got.push(...c));
    proxy.deliver(answer.subarray(30));
    expect(got).toEqual([...encodeHello(0x0e44)]);
    expect(t.peer).toBe('localhost:44321@scripted');
  });

  it('refuses a peer that is not a pmproxy PCP relay', async () => {
    const proxy = new ScriptedTransport();
    const relayed = pmproxyRelay(proxy, 'localhost', 44321);
    proxy.deliver(new TextEncoder().encode('HTTP/1.1 400 Bad Request\r\n'));
    await expect(relayed).rejects.toThrow(/not a pmproxy PCP relay: it answered 'HTTP\/1.1 400 Bad Request..'/);
    expect(proxy.closed).toBe(true);
  });
});
