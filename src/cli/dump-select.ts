// `pmdash dump METRIC...`: pmdumplog's cherry-picking. A record keeps only the value sets of
// the named metrics, in the order they were named (its first set of each); a record holding
// none of them, and every <mark>, is skipped. The formatters take the chosen sets' byte
// offsets in place of walking the record.
import type { RawRecord } from '../pcp-core/archive/record-cursor';
import type { PmId } from '../pcp-core/types';

/** Offsets of the sets of `wanted` in `rec`, in the order of `wanted`; empty: skip the record. */
export function pickSets(rec: RawRecord, wanted: readonly PmId[]): number[] {
  if (rec.mark || !rec.frame || !rec.ctx) return [];
  const { view, start } = rec.frame;
  const at = new Map<number, number>();
  let p = start + rec.ctx.format.dataHeaderSize;
  for (let i = 0; i < rec.numpmid; i++) {
    const pmid = view.getUint32(p);
    const numval = view.getInt32(p + 4);
    if (!at.has(pmid)) at.set(pmid, p);
    p += numval > 0 ? 12 + 8 * numval : 8;
  }
  const out: number[] = [];
  for (const id of wanted) {
    const q = at.get(id);
    if (q !== undefined) out.push(q);
  }
  return out;
}
