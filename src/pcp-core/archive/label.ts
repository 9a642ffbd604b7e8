// The label record at the start of every archive file (archive-format.md §3) and libpcp's
// checks on it (__pmLogLoadLabel + __pmLogChkLabel, §3.3), in libpcp's order so that a
// damaged label gets the same verdict: PM_ERR_NODATA for a file too short to hold 8 bytes or
// holding nothing but its label, PM_ERR_LABEL for bad lengths, magic, version or volume
// number, PM_ERR_FEATURE for unknown V3 feature bits. First step of opening any file.
import type { ByteSource } from '../io/byte-source';
import { decodeCString } from '../io/cursor';
import { DecodeError, PM_ERR_FEATURE, PM_ERR_LABEL, PM_ERR_NODATA } from '../errors';
import type { Timestamp } from '../types';
import { PM_LOG_FEATURES, PM_LOG_MAGIC, decodeTimestampV3, decodeTimeval, logFormat, type LogVersion } from './log-format';

export interface ArchiveLabel {
  readonly version: LogVersion;
  /** The whole magic word, version in the low byte. */
  readonly magic: number;
  /** PID of the process that wrote the archive. */
  readonly pid: number;
  /** Start time: the timestamp of the first data record. */
  readonly start: Timestamp;
  /** N for `B.N`, -1 for `.meta`, -2 for `.index`. */
  readonly vol: number;
  /** V3 feature bits (0 for V2). */
  readonly features: number;
  readonly hostname: string;
  /** POSIX TZ string, e.g. "AEST-10". */
  readonly timezone: string;
  /** V3 Olson name with its leading ':' (e.g. ":Australia/Melbourne"), or '' (always for V2). */
  readonly zoneinfo: string;
}

export interface LabelExpectation {
  /** The `vol` the label must carry. */
  readonly vol: number;
  /** Reject unknown V3 feature bits (an ordinary pmNewContext does; pmdumplog does not). */
  readonly checkFeatures: boolean;
  /**
   * The file size that means "nothing but a label" (PM_ERR_NODATA). libpcp compares with the
   * label size of the archive's first data volume; default: this label's own size.
   */
  readonly labelOnlySize?: number;
}

/** The most a label can take: enough bytes for either version. */
export const MAX_LABEL_SIZE = 808;

function fail(code: number, source: string, detail: string): never {
  throw new DecodeError(code, source, 0, 'label', detail);
}

/**
 * Decodes and checks a label from the first bytes of a file (at least min(size, 808)).
 * `fileSize` is the whole (uncompressed) file's size.
 */
export function decodeLabel(bytes: Uint8Array, fileSize: number, source: string, expect: LabelExpectation): ArchiveLabel {
  // Layout §3.1 / §3.2: u32 length, u32 magic (version in the low byte), ...
  if (bytes.length < 8) fail(PM_ERR_NODATA, source, `file is empty (${bytes.length} bytes, a label needs at least 8)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0);
  const magic = view.getUint32(4);
  const version = magic & 0xff;
  if (version !== 2 && version !== 3) fail(PM_ERR_LABEL, source, `bad label version: ${version} not 2 or 3 as expected`);
  const format = logFormat(version);
  if (length !== format.labelSize) fail(PM_ERR_LABEL, source, `bad label length ${length} for version ${version} (expected ${format.labelSize})`);
  if (bytes.length < format.labelSize - 4) fail(PM_ERR_LABEL, source, `label cut short: ${bytes.length} of ${format.labelSize} bytes`);
  let label: ArchiveLabel;
  if (version === 3) {
    // §3.2: i32 pid @8, V3 timestamp @12, i32 vol @24, u32 features @28, u32 reserved @32,
    // char[256] hostname @36, char[256] timezone @292, char[256] zoneinfo @548.
    label = {
      version,
      magic,
      pid: view.getInt32(8),
      start: decodeTimestampV3(view, 12),
      vol: view.getInt32(24),
      features: view.getUint32(28),
      hostname: decodeCString(bytes.subarray(36, 36 + 255)),
      timezone: decodeCString(bytes.subarray(292, 292 + 255)),
      zoneinfo: decodeCString(bytes.subarray(548, 548 + 255)),
    };
  } else {
    // §3.1: i32 pid @8, timeval @12, i32 vol @20, char[64] hostname @24, char[40] tz @88.
    label = {
      version,
      magic,
      pid: view.getInt32(8),
      start: decodeTimeval(view, 12),
      vol: view.getInt32(20),
      features: 0,
      hostname: decodeCString(bytes.subarray(24, 24 + 63)),
      timezone: decodeCString(bytes.subarray(88, 88 + 39)),
      zoneinfo: '',
    };
  }
  // Trailer @labelSize-4 must repeat the length.
  if (bytes.length < format.labelSize) fail(PM_ERR_LABEL, source, `label trailer missing: ${bytes.length} of ${format.labelSize} bytes`);
  const trailer = view.getUint32(format.labelSize - 4);
  if (trailer !== length) fail(PM_ERR_LABEL, source, `label record length mismatch: header ${length} != trailer ${trailer}`);
  if (((magic & 0xffffff00) >>> 0) !== PM_LOG_MAGIC) {
    fail(PM_ERR_LABEL, source, `bad label magic number: 0x${((magic & 0xffffff00) >>> 0).toString(16)} not 0x${PM_LOG_MAGIC.toString(16)} as expected`);
  }
  if (label.vol !== expect.vol) fail(PM_ERR_LABEL, source, `label volume ${label.vol} not ${expect.vol} as expected`);
  if (expect.checkFeatures && (label.features & ~PM_LOG_FEATURES) !== 0) {
    fail(PM_ERR_FEATURE, source, `unsupported feature bits 0x${((label.features & ~PM_LOG_FEATURES) >>> 0).toString(16)}`);
  }
  if (fileSize === (expect.labelOnlySize ?? format.labelSize)) fail(PM_ERR_NODATA, source, 'file holds only its label');
  return label;
}

/** Reads the label of a file and checks it (one read of at most 808 bytes). */
export async function readLabel(source: ByteSource, expect: LabelExpectation): Promise<ArchiveLabel> {
  const bytes = await source.read(0, Math.min(MAX_LABEL_SIZE, source.size));
  return decodeLabel(bytes, source.size, source.name, expect);
}
