// The V3 label record that starts every file of an archive (archive-format.md §3.2): 808
// bytes, framed by its length, magic 0x50052603, the writer's PID, the start time (the
// first data record's timestamp), the volume (N, -1 for .meta, -2 for .index), feature
// bits, hostname, POSIX TZ and zoneinfo. libpcp requires the same PID and hostname in all
// three files (§3.3), so one LabelFields value is written three times with different `vol`.
import type { Timestamp } from '../types';
import { PM_LOG_MAGIC } from '../archive/log-format';
import type { ArchiveByteWriter } from './byte-writer';

export const LABEL_SIZE_V3 = 808;

export interface LabelFields {
  readonly pid: number;
  readonly start: Timestamp;
  readonly hostname: string;
  /** POSIX TZ string ("AEST-10", "UTC"). */
  readonly timezone: string;
  /** Olson name with its leading ':' (":Australia/Melbourne"), or ''. */
  readonly zoneinfo: string;
}

export function encodeLabelV3(w: ArchiveByteWriter, label: LabelFields, vol: number): void {
  const at = w.length;
  w.u32(LABEL_SIZE_V3);
  w.u32(PM_LOG_MAGIC | 3);
  w.i32(label.pid);
  w.stampV3(label.start);
  w.i32(vol);
  w.u32(0); // features: none
  w.u32(0); // reserved
  w.fixedString(label.hostname, 256);
  w.fixedString(label.timezone, 256);
  w.fixedString(label.zoneinfo, 256);
  w.u32(LABEL_SIZE_V3);
  if (w.length - at !== LABEL_SIZE_V3) throw new Error(`label encoder wrote ${w.length - at} bytes`);
}
