// Decodes one value of a record into an AtomValue, by the descriptor's type (archive-format.md
// §5.3–5.5: the block's vtype is unreliable in old archives, so it is not consulted). Used when
// a fetch result is built; the scan loops never call it. Payloads are decoded by the archive
// reader's one value decoder (archive/value-decode.ts), so `values` and `dump` agree.
import type { AtomValue } from '../types';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE_STATIC, PM_TYPE_DOUBLE, PM_TYPE_EVENT, PM_TYPE_FLOAT, PM_TYPE_HIGHRES_EVENT, PM_TYPE_STRING, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import { decodeAtom } from '../archive/value-decode';
import { PM_VAL_INSITU } from './log-record';

const NO_BYTES = new Uint8Array(0);

/**
 * The value at `off` of a record: for valfmt INSITU `off` is the value word, otherwise the
 * start of the value block. A payload that cannot hold the type (too short, a malformed event
 * array) is kept as raw bytes; undefined for types that have no AtomValue form.
 */
export function decodeValue(view: DataView, off: number, valfmt: number, type: number): AtomValue | undefined {
  if (valfmt === PM_VAL_INSITU) {
    switch (type) {
      case PM_TYPE_32:
        return view.getInt32(off);
      case PM_TYPE_U32:
        return view.getUint32(off);
      case PM_TYPE_FLOAT:
        return view.getFloat32(off);
      default:
        return undefined;
    }
  }
  // Bounded by the trailer (the view is the record): a block libpcp accepts only as its
  // in-place swaps read it (archive/value-sets.ts) may say, as written, more than that.
  const vlen = Math.max(4, Math.min(view.getUint32(off) & 0xffffff, view.byteLength - 4 - off));
  const payload = off + 4;
  const len = vlen - 4;
  // Numbers are read from the view; only texts, aggregates and events need the bytes.
  const bytes = hasBytes(type) ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength) : NO_BYTES;
  const atom = decodeAtom(type, view, bytes, payload, len);
  if (atom !== undefined || !hasEncoding(type)) return atom;
  return new Uint8Array(view.buffer, view.byteOffset + payload, Math.max(0, len)).slice();
}

function hasBytes(type: number): boolean {
  return type === PM_TYPE_STRING || type === PM_TYPE_AGGREGATE || type === PM_TYPE_AGGREGATE_STATIC || type === PM_TYPE_EVENT || type === PM_TYPE_HIGHRES_EVENT;
}

function hasEncoding(type: number): boolean {
  return hasBytes(type) || type === PM_TYPE_32 || type === PM_TYPE_U32 || type === PM_TYPE_64 || type === PM_TYPE_U64 || type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE;
}
