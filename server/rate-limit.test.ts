import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('the pmproxy proxy rate limiter', () => {
  const limits = { perClientPerSecond: 10, perClientBurst: 5, globalPerSecond: 100, globalBurst: 8, maxClients: 3 };

  it('lets one client make its burst, then its rate', () => {
    let t = 0;
    const r = new RateLimiter(limits, () => t);
    for (let i = 0; i < 5; i++) expect(r.take('a')).toBeUndefined();
    expect(r.take('a')).toMatchObject({ scope: 'client' });
    t += 100; // 10 per second: one more after 100 ms
    expect(r.take('a')).toBeUndefined();
    expect(r.take('a')).toMatchObject({ scope: 'client' });
  });

  it('limits all clients together', () => {
    let t = 0;
    const r = new RateLimiter(limits, () => t);
    for (let i = 0; i < 5; i++) expect(r.take('a')).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(r.take('b')).toBeUndefined();
    expect(r.take('c')).toMatchObject({ scope: 'global' });
    t += 10; // 100 per second: one more after 10 ms
    expect(r.take('c')).toBeUndefined();
  });

  it('keeps a bounded table: idle clients are forgotten, active ones keep their place', () => {
    let t = 0;
    const r = new RateLimiter({ ...limits, globalBurst: 1000 }, () => t);
    for (const c of ['a', 'b', 'c']) expect(r.take(c)).toBeUndefined();
    expect(r.take('d')).toMatchObject({ scope: 'global' });
    expect(r.size).toBe(3);
    t += 1000; // every bucket full again
    expect(r.take('d')).toBeUndefined();
    expect(r.size).toBe(1);
  });
});
