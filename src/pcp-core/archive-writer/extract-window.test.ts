// Which volumes an extract's window can reach, by the temporal index: replay decompresses
// none ahead past them. (The bytes it spans, windowBytes, are checked against pmlogextract's
// volumes in extract-window-estimate.conformance.test.ts.)
import { describe, expect, it } from 'vitest';
import { TemporalIndex } from '../archive/temporal-index';
import { lastVolumeBy } from './extract-window';

/** Entries (seconds, volume, data offset). */
function index(entries: readonly (readonly [number, number, number])[]): TemporalIndex {
  return new TemporalIndex(
    Float64Array.from(entries, ([s]) => s),
    new Int32Array(entries.length),
    Int32Array.from(entries, ([, v]) => v),
    new Float64Array(entries.length),
    Float64Array.from(entries, ([, , o]) => o),
  );
}

describe('lastVolumeBy', () => {
  const ix = index([[100, 0, 808], [200, 0, 5000], [300, 1, 808], [400, 1, 9000], [500, 2, 808]]);
  it('is the volume of the first entry after the window end', () => {
    expect(lastVolumeBy(ix, { sec: 150, nsec: 0 })).toBe(0);
    expect(lastVolumeBy(ix, { sec: 250, nsec: 0 })).toBe(1);
    // An entry at the end itself is not after it: the next entry's volume.
    expect(lastVolumeBy(ix, { sec: 300, nsec: 0 })).toBe(1);
    expect(lastVolumeBy(ix, { sec: 499, nsec: 999_999_999 })).toBe(2);
  });
  it('is undefined past the last entry or without an index', () => {
    expect(lastVolumeBy(ix, { sec: 500, nsec: 0 })).toBeUndefined();
    expect(lastVolumeBy(undefined, { sec: 1, nsec: 0 })).toBeUndefined();
    expect(lastVolumeBy(TemporalIndex.EMPTY, { sec: 1, nsec: 0 })).toBeUndefined();
  });
});
