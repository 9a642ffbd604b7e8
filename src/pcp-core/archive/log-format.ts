// The version-dependent shape of an archive (archive-format.md §2.3, §3, §5.1, §6.1) and the
// two on-disk timestamp encodings. Everything that differs between V2 and V3 apart from the
// record layouts themselves is decided here, once, from the label's version.
import type { Timestamp } from '../types';

export type LogVersion = 2 | 3;

/** PM_LOG_MAGIC: the upper 24 bits of every label's magic word (§3.3). */
export const PM_LOG_MAGIC = 0x50052600;
/** Label `vol` of the metadata file and of the temporal index (§3.1). */
export const PM_LOG_VOL_META = -1;
export const PM_LOG_VOL_TI = -2;
/** The only defined V3 feature bit; any other bit is unsupported in 6.0.3 (§3.3). */
export const PM_LOG_FEATURE_QA = 0x80000000;
export const PM_LOG_FEATURES = PM_LOG_FEATURE_QA;

/** Sizes that follow from the version (§12). */
export interface LogFormat {
  readonly version: LogVersion;
  /** Label record, header and trailer included: 132 / 808. */
  readonly labelSize: number;
  /** On-disk timestamp: 8 (timeval) / 12 (sec_low, sec_high, nsec). */
  readonly stampSize: number;
  /** Data record header: length word + timestamp + numpmid: 16 / 20. */
  readonly dataHeaderSize: number;
  /** A <mark> record: header + trailer: 20 / 24. */
  readonly markSize: number;
  /** One temporal index entry: 20 / 32. */
  readonly indexEntrySize: number;
}

export const LOG_FORMAT_V2: LogFormat = Object.freeze({ version: 2, labelSize: 132, stampSize: 8, dataHeaderSize: 16, markSize: 20, indexEntrySize: 20 });
export const LOG_FORMAT_V3: LogFormat = Object.freeze({ version: 3, labelSize: 808, stampSize: 12, dataHeaderSize: 20, markSize: 24, indexEntrySize: 32 });

export function logFormat(version: LogVersion): LogFormat {
  return version === 3 ? LOG_FORMAT_V3 : LOG_FORMAT_V2;
}

/**
 * A V2 timeval at `off`: i32 seconds, i32 microseconds. libpcp multiplies the microseconds
 * by 1000 in 32-bit arithmetic (__pmLoadTimeval), which only matters for corrupt values; the
 * same wrap is kept so comparisons agree with libpcp's on damaged archives.
 */
export function decodeTimeval(view: DataView, off: number): Timestamp {
  return { sec: view.getInt32(off), nsec: Math.imul(view.getUint32(off + 4), 1000) | 0 };
}

/**
 * A V3 timestamp at `off`: the 64-bit seconds are stored low word first (§2.3 quirk), then
 * i32 nanoseconds. sec_high * 2^32 + sec_low is exact for any real date.
 */
export function decodeTimestampV3(view: DataView, off: number): Timestamp {
  return { sec: view.getInt32(off + 4) * 0x100000000 + view.getUint32(off), nsec: view.getInt32(off + 8) };
}

export function decodeStamp(view: DataView, off: number, version: LogVersion): Timestamp {
  return version === 3 ? decodeTimestampV3(view, off) : decodeTimeval(view, off);
}
