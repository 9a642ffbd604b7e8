import { describe, expect, it } from 'vitest';
import { PM_IN_NULL, PM_LABEL_ITEM } from '../types';
import { LabelHistory } from './label-history';
import type { StoredLabelSet } from './meta-records';

const set = (json: string): StoredLabelSet => ({ inst: PM_IN_NULL, json, labels: [], nlabels: 0 });
const at = (sec: number) => ({ sec, nsec: 0 });

describe('LabelHistory.changeAfter', () => {
  // Records at 10, 20 and 30 s, added out of order: what `at` answers changes at each.
  const h = new LabelHistory();
  for (const s of [20, 10, 30]) h.add({ stamp: at(s), type: PM_LABEL_ITEM, ident: 7, sets: [set(`{"t":${s}}`)] });

  it('is the next time at which what `at` answers changes', () => {
    expect(h.changeAfter(PM_LABEL_ITEM, 7, at(0))).toEqual(at(10));
    expect(h.changeAfter(PM_LABEL_ITEM, 7, at(10))).toEqual(at(20));
    expect(h.changeAfter(PM_LABEL_ITEM, 7, at(15))).toEqual(at(20));
    expect(h.changeAfter(PM_LABEL_ITEM, 7, at(29))).toEqual(at(30));
    expect(h.changeAfter(PM_LABEL_ITEM, 7, at(30))).toBeUndefined();
    expect(h.changeAfter(PM_LABEL_ITEM, 8, at(0))).toBeUndefined();
  });

  it('agrees with `at`: between two changes the same sets are answered (a new [] before the first)', () => {
    for (let t = 0; t < 40; t++) {
      const next = h.changeAfter(PM_LABEL_ITEM, 7, at(t));
      const last = next ? next.sec - 1 : 40;
      expect(h.at(PM_LABEL_ITEM, 7, at(last))).toEqual(h.at(PM_LABEL_ITEM, 7, at(t)));
      if (next) expect(h.at(PM_LABEL_ITEM, 7, next)).not.toEqual(h.at(PM_LABEL_ITEM, 7, at(t)));
    }
  });
});
