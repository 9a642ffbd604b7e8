import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest, spawnServe } from '../../server/testing/serve';
import { UsageError } from './args';
import { bridgeTargets, pmproxyUrl, publicHosts } from './serve';

describe('pmdash serve --pmcd', () => {
  it('takes the flags, else $PMDASH_PMCD, else the local pmcd, in canonical form', () => {
    expect(bridgeTargets(['db1', 'db2:4000@gw'], 'ignored')).toEqual(['db1:44321', 'db2:4000@gw:44322']);
    expect(bridgeTargets([], ' localhost , 10.0.0.7@localhost ')).toEqual(['localhost:44321', '10.0.0.7:44321@localhost:44322']);
    expect(bridgeTargets([], undefined)).toEqual(['localhost:44321']);
    expect(bridgeTargets([], '')).toEqual(['localhost:44321']);
  });

  it('takes *@PROXY[:PORT], any pmcd behind that pmproxy, as the README documents', () => {
    expect(bridgeTargets(['localhost', '*@localhost:44322', '*@gw'], undefined)).toEqual(['localhost:44321', '*@localhost:44322', '*@gw:44322']);
    expect(bridgeTargets([], '*@gw')).toEqual(['*@gw:44322']);
  });

  it('refuses a malformed target as a usage error', () => {
    expect(() => bridgeTargets(['db1:notaport'], undefined)).toThrow(UsageError);
    expect(() => bridgeTargets(['*@'], undefined)).toThrow(UsageError);
  });

  it('takes --public-host, else $PMDASH_PUBLIC_HOST, and refuses a malformed one', () => {
    expect(publicHosts(['dash.example.org', 'gw:8443'], 'ignored')).toEqual(['dash.example.org', 'gw:8443']);
    expect(publicHosts([], ' a.example , b.example:80 ')).toEqual(['a.example', 'b.example:80']);
    expect(publicHosts([], undefined)).toEqual([]);
    expect(() => publicHosts(['http://dash.example.org/'], undefined)).toThrow(UsageError);
  });
});

describe('pmdash serve --pmproxy', () => {
  it('takes the flag, else $PMDASH_PMPROXY, else none; HOST[:PORT] means http on 44322 by default', () => {
    expect(pmproxyUrl('http://gw.example:8080', 'ignored')?.href).toBe('http://gw.example:8080/');
    expect(pmproxyUrl(undefined, 'localhost')?.href).toBe('http://localhost:44322/');
    expect(pmproxyUrl(undefined, ' ')).toBeUndefined();
    expect(pmproxyUrl(undefined, undefined)).toBeUndefined();
    expect(() => pmproxyUrl('ftp://gw', undefined)).toThrow(UsageError);
    expect(() => pmproxyUrl(undefined, 'http://user:secret@gw')).toThrow(UsageError);
  });
});

const running: ChildProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.kill('SIGTERM');
});

/** `pmdash serve ARGS` (bin/pmdash.js) on a free loopback port; its origin. */
function serveCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { proc, origin } = spawnServe(args, env);
  running.push(proc);
  return origin;
}

async function targetsOf(origin: string): Promise<unknown> {
  return (await fetch(`${origin}/pmcd/targets`)).json();
}

describe('pmdash serve (the command)', () => {
  it("accepts --pmcd '*@PROXY' and lists it among the bridge's targets", async () => {
    const origin = await serveCli(['--pmcd', 'localhost', '--pmcd', '*@localhost:44322']);
    expect(await targetsOf(origin)).toEqual({ default: 'localhost:44321', targets: ['localhost:44321', '*@localhost:44322'] });
  });

  it('answers only to its own names and the --public-host ones (also from $PMDASH_PUBLIC_HOST)', async () => {
    const origin = await serveCli(['--public-host', 'dash.example.org:8044']);
    expect(await rawRequest(origin, '/pmcd/targets', { Host: 'dash.example.org:8044' })).toBe(200);
    expect(await rawRequest(origin, '/pmcd/targets', { Host: 'dash.example.org:9999' })).toBe(403);
    expect(await rawRequest(origin, '/pmcd/targets', { Host: 'evil.example:8044' })).toBe(403);
    expect(await rawRequest(origin, '/pmcd', { Host: 'evil.example:8044', Origin: 'http://evil.example:8044' }, true)).toBe(403);
    const fromEnv = await serveCli([], { PMDASH_PUBLIC_HOST: 'dash.example.org' });
    expect(await rawRequest(fromEnv, '/', { Host: 'dash.example.org:1234' })).toBe(200);
    expect(await rawRequest(fromEnv, '/', { Host: 'evil.example' })).toBe(403);
  });
});
