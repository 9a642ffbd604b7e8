// pmFetch in PM_MODE_FORW / PM_MODE_BACK and pmFetchArchive (archive-format.md §7.2): the next
// record at or after (before) the origin that holds at least one requested metric, returned
// as stored apart from the instance profile; <mark> records are skipped by pmFetch and
// returned by pmFetchArchive. Positioning follows libpcp's __pmLogFetch: the index seek, a
// fine-tuning pass in the opposite direction, then serial reading from wherever that left off.
import type { AtomValue, PmId, Result, Timestamp, ValueSet } from '../types';
import { PM_INDOM_NULL, PM_TYPE_32 } from '../types';
import type { InstanceProfile } from './instance-profile';
import { MODE_BACK, MODE_FORW, type Direction, type LogCursor } from './log-cursor';
import { blockOffset, PM_VAL_INSITU, valuePairOffset, vsetNumval, vsetPmid, vsetValfmt, type LogRecord } from './log-record';
import { setTime } from './log-seek';
import { timestampSub } from './log-time';
import type { ReplayMetadata } from './replay-source';
import { decodeValue } from './value-decode';

export type SerialOutcome = { readonly record: LogRecord } | { readonly error: number };

/**
 * Reads on from the context's position. `pmids` empty means pmFetchArchive (marks returned).
 * On success the caller sets its origin to the record's timestamp.
 */
export async function serialRead(cursor: LogCursor, direction: Direction, origin: Timestamp, pmids: readonly PmId[]): Promise<SerialOutcome> {
  const restored = cursor.restorePosition();
  if (restored < 0) return { error: restored };
  const wanted = new Set<number>(pmids);
  let from = origin;
  for (;;) {
    let rec: LogRecord | undefined;
    let error = 0;
    for (;;) {
      if (!cursor.serial) {
        const s = await setTime(cursor, from, direction);
        if (s < 0) return { error: s };
        cursor.rememberPosition();
        // Fine tuning: step back (relative to the direction) over records past the origin.
        const opposite = direction === MODE_FORW ? MODE_BACK : MODE_FORW;
        for (;;) {
          const r = cursor.tryRead(opposite) ?? (await cursor.read(opposite));
          if (typeof r === 'number') break;
          const tdiff = timestampSub(r.timestamp, from);
          if ((direction === MODE_FORW && tdiff < 0) || (direction === MODE_BACK && tdiff > 0) || tdiff === 0) break;
          cursor.rememberPosition();
        }
        cursor.serial = true;
      }
      const r = cursor.tryRead(direction) ?? (await cursor.read(direction));
      if (typeof r === 'number') {
        error = r;
        break;
      }
      const tdiff = timestampSub(r.timestamp, from);
      if ((tdiff < 0 && direction === MODE_FORW) || (tdiff > 0 && direction === MODE_BACK)) continue;
      rec = r;
      break;
    }
    if (rec) from = rec.timestamp;
    if (rec && pmids.length > 0) {
      // pmFetch skips <mark>s and records holding none of the requested metrics.
      if (rec.numpmid === 0 || !holdsAny(rec, wanted)) continue;
    }
    cursor.rememberPosition();
    return rec ? { record: rec } : { error };
  }
}

function holdsAny(rec: LogRecord, wanted: ReadonlySet<number>): boolean {
  for (let k = 0; k < rec.numpmid; k++) if (wanted.has(vsetPmid(rec, k))) return true;
  return false;
}

/** The value set of pmid k of a record, decoded, optionally filtered by the profile. */
function decodeSet(rec: LogRecord, k: number, meta: ReplayMetadata, profile: InstanceProfile | null): ValueSet {
  const pmid = vsetPmid(rec, k) as PmId;
  const numval = vsetNumval(rec, k);
  if (numval <= 0) return { pmid, numval, valfmt: PM_VAL_INSITU, inst: new Int32Array(0), values: [] };
  const valfmt = vsetValfmt(rec, k);
  const desc = meta.desc(pmid);
  const filter = profile && desc && desc.indom !== PM_INDOM_NULL ? desc.indom : undefined;
  const inst: number[] = [];
  const values: AtomValue[] = [];
  for (let j = 0; j < numval; j++) {
    const pair = valuePairOffset(rec, k, j);
    const id = rec.view.getInt32(pair);
    if (filter !== undefined && !(profile as InstanceProfile).includes(filter, id)) continue;
    const off = valfmt === PM_VAL_INSITU ? pair + 4 : blockOffset(rec.view.getUint32(pair + 4));
    // Without a descriptor, fall back to the block's own type byte (insitu: a 32-bit int).
    const type = desc ? desc.type : valfmt === PM_VAL_INSITU ? PM_TYPE_32 : rec.view.getUint8(off);
    const v = decodeValue(rec.view, off, valfmt, type);
    inst.push(id);
    values.push(v ?? rec.buf.slice(off + 4, off + (rec.view.getUint32(off) & 0xffffff)));
  }
  return { pmid, numval: inst.length, valfmt, inst: Int32Array.from(inst), values };
}

/** A pmFetch result: one value set per requested pmid, in request order. */
export function resultForPmids(rec: LogRecord, pmids: readonly PmId[], meta: ReplayMetadata, profile: InstanceProfile): Result {
  const sets: ValueSet[] = pmids.map((pmid) => {
    for (let k = 0; k < rec.numpmid; k++) if (vsetPmid(rec, k) === pmid) return decodeSet(rec, k, meta, profile);
    return { pmid, numval: 0, valfmt: PM_VAL_INSITU, inst: new Int32Array(0), values: [] };
  });
  return { timestamp: rec.timestamp, sets };
}

/** A pmFetchArchive result: the record as stored (no profile); a <mark> has no sets. */
export function resultForRecord(rec: LogRecord, meta: ReplayMetadata): Result {
  const sets: ValueSet[] = [];
  for (let k = 0; k < rec.numpmid; k++) sets.push(decodeSet(rec, k, meta, null));
  return { timestamp: rec.timestamp, sets };
}
