import { describe, expect, it } from 'vitest';
import { ByteCache, cacheOwner } from './byte-cache';

describe('ByteCache', () => {
  it('evicts the least recently used entries beyond its budget, never the newest', () => {
    const cache = new ByteCache(100);
    cache.set('a', new Uint8Array(40));
    cache.set('b', new Uint8Array(40));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', new Uint8Array(40)); // evicts b
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(80);
    cache.set('huge', new Uint8Array(500)); // alone over budget: kept, the rest go
    expect(cache.get('huge')?.length).toBe(500);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(500);
  });

  it('resizes: a smaller budget drops the least recently used entries at once', () => {
    const cache = new ByteCache(100);
    for (const k of ['a', 'b', 'c']) cache.set(k, new Uint8Array(30));
    cache.get('a');
    cache.resize(200);
    cache.set('d', new Uint8Array(100));
    expect(cache.size).toBe(190); // nothing dropped under the larger budget
    cache.resize(130);
    expect(cache.budgetBytes).toBe(130);
    expect([cache.get('b'), cache.get('c')]).toEqual([undefined, undefined]);
    expect(cache.get('a')?.length).toBe(30);
    expect(cache.size).toBe(130);
  });

  it('drops one owner’s entries', () => {
    const cache = new ByteCache(1000);
    const [x, y] = [cacheOwner('t'), cacheOwner('t')];
    cache.set(`${x}1`, new Uint8Array(1));
    cache.set(`${y}1`, new Uint8Array(2));
    cache.deletePrefix(x);
    expect(cache.get(`${x}1`)).toBeUndefined();
    expect(cache.get(`${y}1`)?.length).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('drops every entry on clear', () => {
    const cache = new ByteCache(1000, 2);
    cache.set('a', new Uint8Array(10));
    cache.set('b', new Uint8Array(20));
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set('c', new Uint8Array(5));
    expect(cache.size).toBe(5);
  });
});
