import { describe, expect, it } from 'vitest';
import { ConnectGate } from './connect-gate';

describe('ConnectGate', () => {
  it('lets a few connections per target open at once and queues the rest in order', async () => {
    const gate = new ConnectGate(2, 60_000);
    const order: number[] = [];
    const releases = await Promise.all([gate.enter('a'), gate.enter('a')]);
    const third = gate.enter('a').then((r) => (order.push(3), r));
    const fourth = gate.enter('a').then((r) => (order.push(4), r));
    const other = await gate.enter('b');
    expect(gate.load('a')).toEqual({ active: 2, waiting: 2 });
    releases[0]?.();
    releases[0]?.(); // releasing twice frees one slot only
    (await third)();
    (await fourth)();
    expect(order).toEqual([3, 4]);
    other();
    releases[1]?.();
    expect([gate.load('a'), gate.load('b')]).toEqual([{ active: 0, waiting: 0 }, { active: 0, waiting: 0 }]);
  });

  it('takes a slot back from a holder that never releases it', async () => {
    const gate = new ConnectGate(1, 20);
    await gate.enter('a');
    const next = await gate.enter('a');
    next();
    expect(gate.load('a').active).toBe(0);
  });
});
