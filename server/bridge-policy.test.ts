// The bridge's allow-list: exact targets, `*@PROXY` entries that admit any pmcd behind one
// pmproxy (the bridge still connects only to that pmproxy), and the default target.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { chooseTarget, defaultTarget, makePolicy } from './bridge-policy';

const request = (url: string): IncomingMessage => ({ url, headers: {} }) as IncomingMessage;

describe('bridge allow-list', () => {
  it('admits exactly the listed targets, in canonical form', () => {
    const p = makePolicy({ targets: ['localhost', 'db1:44330@proxy1'] });
    expect(p.targets).toEqual(['localhost:44321', 'db1:44330@proxy1:44322']);
    expect(chooseTarget(request('/pmcd?target=localhost:44321'), p)).toMatchObject({ name: 'localhost:44321' });
    expect(chooseTarget(request('/pmcd?target=db1:44330@proxy1'), p)).toMatchObject({ name: 'db1:44330@proxy1:44322', target: { host: 'db1', port: 44330, proxy: { host: 'proxy1', port: 44322 } } });
    expect(chooseTarget(request('/pmcd?target=db2@proxy1'), p)).toMatchObject({ status: 403 });
  });

  it('admits any pmcd behind a *@PROXY entry, and nothing else through it', () => {
    const p = makePolicy({ targets: ['localhost', '*@relay'] });
    expect(p.targets).toEqual(['localhost:44321', '*@relay:44322']);
    expect(chooseTarget(request('/pmcd?target=db7@relay'), p)).toMatchObject({ name: 'db7:44321@relay:44322', target: { host: 'db7', proxy: { host: 'relay', port: 44322 } } });
    expect(chooseTarget(request('/pmcd?target=10.1.2.3:4000@relay:44322'), p)).toMatchObject({ name: '10.1.2.3:4000@relay:44322' });
    // Not the pmproxy itself as a pmcd, nor another pmproxy, nor a direct connection.
    expect(chooseTarget(request('/pmcd?target=relay:44322'), p)).toMatchObject({ status: 403 });
    expect(chooseTarget(request('/pmcd?target=db7@other'), p)).toMatchObject({ status: 403 });
    expect(chooseTarget(request('/pmcd?target=db7@relay:1'), p)).toMatchObject({ status: 403 });
    expect(chooseTarget(request('/pmcd?target=db7'), p)).toMatchObject({ status: 403 });
  });

  it('defaults to the first plain target; with only *@ entries a target must be given', () => {
    expect(defaultTarget(makePolicy({ targets: ['*@relay', 'h2'] }))).toBe('h2:44321');
    const only = makePolicy({ targets: ['*@relay'] });
    expect(defaultTarget(only)).toBeUndefined();
    const refused = chooseTarget(request('/pmcd'), only);
    expect(refused).toMatchObject({ status: 400 });
    expect('reason' in refused ? refused.reason : '').toContain('give a target');
  });

  it('refuses a malformed *@ entry when the policy is made', () => {
    expect(() => makePolicy({ targets: ['*@'] })).toThrow(/bad target/);
    expect(() => makePolicy({ targets: ['*@relay:x'] })).toThrow(/bad/);
  });
});
