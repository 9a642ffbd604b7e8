// `pmdash dump METRIC...`: pmdumplog's cherry-picking. A record keeps only the value sets of
// the named metrics, in the order they were named (its first set of each); a record holding
// none of them, and every <mark>, is skipped. The formatters take the chosen sets' byte
// offsets in place of walking the record.
import type { LogRecord } from '../pcp-core/replay/log-record';
import type { PmId } from '../pcp-core/types';

/** Offsets of the sets of `wanted` in `rec`, in the order of `wanted`; empty: skip the record. */
export function pickSets(rec: LogRecord, wanted: readonly PmId[]): number[] {
  const at = new Map<number, number>();
  for (let i = 0; i < rec.numpmid; i++) {
    const p = rec.vsetOffsets[i];
    const pmid = rec.view.getUint32(p);
    if (!at.has(pmid)) at.set(pmid, p);
  }
  const out: number[] = [];
  for (const id of wanted) {
    const q = at.get(id);
    if (q !== undefined) out.push(q);
  }
  return out;
}
