// The temporal index (.index, archive-format.md §6): after the label, a plain array of
// fixed-size entries (time, volume, .meta offset, data offset). Loaded whole when an archive
// opens, as libpcp's __pmLogLoadIndex does, into parallel typed arrays; a partial entry at
// the end is ignored and nothing else is checked (libpcp trusts the entries; the cursor
// copes with bad ones the way libpcp does; file-check.ts says what pmlogcheck would). Used
// by replay/log-seek.ts to position reads.
import type { Timestamp } from '../types';
import type { LogFormat } from './log-format';

export class TemporalIndex {
  constructor(
    /** Entry times: whole seconds (exact integers in a double). */
    readonly sec: Float64Array,
    readonly nsec: Int32Array,
    readonly vol: Int32Array,
    /** Offsets as numbers: exact below 2^53, which any real file is. */
    readonly offMeta: Float64Array,
    readonly offData: Float64Array,
    /** Bytes of a partial entry after the last whole one (0 for a sound file). */
    readonly tailBytes = 0,
  ) {}

  get length(): number {
    return this.vol.length;
  }

  stamp(i: number): Timestamp {
    return { sec: this.sec[i], nsec: this.nsec[i] };
  }

  static readonly EMPTY = new TemporalIndex(new Float64Array(0), new Int32Array(0), new Int32Array(0), new Float64Array(0), new Float64Array(0));
}

/**
 * Decodes the entries of an index file image (`bytes` is the whole file, label included).
 * V2 entry (20 bytes): timeval, i32 vol, u32 off_meta, u32 off_data.
 * V3 entry (32 bytes): V3 timestamp, i32 vol, u64 off_meta, u64 off_data (ordinary order).
 */
export function decodeTemporalIndex(bytes: Uint8Array, format: LogFormat): TemporalIndex {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.max(0, Math.floor((bytes.length - format.labelSize) / format.indexEntrySize));
  const sec = new Float64Array(n);
  const nsec = new Int32Array(n);
  const vol = new Int32Array(n);
  const offMeta = new Float64Array(n);
  const offData = new Float64Array(n);
  let p = format.labelSize;
  for (let i = 0; i < n; i++, p += format.indexEntrySize) {
    if (format.version === 3) {
      sec[i] = view.getInt32(p + 4) * 0x100000000 + view.getUint32(p);
      nsec[i] = view.getInt32(p + 8);
      vol[i] = view.getInt32(p + 12);
      // off_t in libpcp: signed 64-bit.
      offMeta[i] = Number(view.getBigInt64(p + 16));
      offData[i] = Number(view.getBigInt64(p + 24));
    } else {
      sec[i] = view.getInt32(p);
      nsec[i] = Math.imul(view.getUint32(p + 4), 1000) | 0;
      vol[i] = view.getInt32(p + 8);
      offMeta[i] = view.getUint32(p + 12);
      offData[i] = view.getUint32(p + 16);
    }
  }
  const tail = bytes.length > format.labelSize ? (bytes.length - format.labelSize) % format.indexEntrySize : 0;
  return new TemporalIndex(sec, nsec, vol, offMeta, offData, tail);
}
