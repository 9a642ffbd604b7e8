// pmlogcheck's checks of an archive's .meta and .index (PCP 6.0.3) beside the descriptor
// checks of desc-check.ts: its pass 0 refuses metadata records of a type the archive's
// version does not have and a partial index entry; its pass 1 checks every temporal index
// entry (volume, time, offsets). libpcp opens such archives (it ignores a partial entry and
// trusts the rest), and so does the core; the user is told what pmlogcheck would say, in its
// words. Data volumes are not walked at open (they are read lazily): damage there is
// reported when a read reaches it.
import { subtractTimestampsDouble } from '../time/timestamp';
import type { Timestamp } from '../types';
import type { ArchiveWarning } from './desc-check';
import type { LogVersion } from './log-format';
import type { TemporalIndex } from './temporal-index';

/** __pmLogMetaTypeStr's names, by metadata record type. */
const META_TYPE_NAMES = ['', 'DESC', 'INDOM_V2', 'LABEL_V2', 'TEXT', 'INDOM', 'INDOM_DELTA', 'LABEL'];

/**
 * Pass 0's refusals (after which pmlogcheck checks nothing more): metadata records the
 * version does not have, and an index file ending in part of an entry. `archive` is the
 * archive's name as given.
 */
export function checkFileRecords(archive: string, version: LogVersion, offVersion: readonly { readonly record: number; readonly type: number }[], index: TemporalIndex, indexEntrySize: number): ArchiveWarning[] {
  const out: ArchiveWarning[] = [];
  const meta = `${archive}.meta`;
  for (const { record, type } of offVersion) {
    out.push({ file: meta, message: `${meta}[record ${record}]: unexpected record type ${META_TYPE_NAMES[type] ?? '???'} (${type}) for V${version} archive` });
  }
  if (index.tailBytes > 0) {
    const file = `${archive}.index`;
    // Records are counted from the label (record 0).
    out.push({ file, message: `${file}[record ${index.length + 1}]: unexpected EOF in index entry, wanted ${indexEntrySize}, got ${index.tailBytes} bytes` });
  }
  return out;
}

/** What pass 1 needs to know of the archive's files besides its index. */
export interface IndexCheckFiles {
  /** The archive's name as given. */
  readonly archive: string;
  readonly labelSize: number;
  /** The label's start time (pmlogcheck skips that comparison when its seconds are 0). */
  readonly labelStart: Timestamp;
  readonly metaSize: number;
  /** A data volume's size; null when the archive has no such volume; undefined when its size
   *  is not known without decompressing it all (the past-the-end check is then skipped). */
  readonly volumeSize: (vol: number) => number | null | undefined;
}

/** Pass 1: every temporal index entry checked against the label, the files and the entry before. */
export function checkIndex(index: TemporalIndex, files: IndexCheckFiles): ArchiveWarning[] {
  const { archive, labelSize, labelStart, metaSize } = files;
  const file = `${archive}.index`;
  const out: ArchiveWarning[] = [];
  if (index.length === 0) return out;
  const warn = (text: string, about = file): void => {
    out.push({ file: about, message: text });
  };
  let logSize: number | null | undefined;
  for (let i = 0; i < index.length; i++) {
    const entry = `${file}[entry ${i + 1}]`;
    const vol = index.vol[i];
    const stamp = index.stamp(i);
    const offMeta = index.offMeta[i];
    const offData = index.offData[i];
    if (vol < 0) {
      warn(`${entry}: illegal negative volume number ${vol}`);
      logSize = null;
    } else if (i === 0 || vol !== index.vol[i - 1]) {
      logSize = files.volumeSize(vol);
      if (logSize === null) warn(`${archive}.${vol}: file missing for log volume ${vol}`, `${archive}.${vol}`);
    }
    if (stamp.sec < 0 || stamp.nsec < 0) warn(`${entry}: illegal negative timestamp value (${stamp.sec} sec, ${stamp.nsec} nsec)`);
    if (stamp.nsec > 999_999_999) warn(`${entry}: illegal timestamp nsec value (${stamp.sec} sec, ${stamp.nsec} nsec)`);
    if (offMeta < labelSize) warn(`${entry}: offset to metadata (${offMeta}) before end of label record (${labelSize})`);
    if (offMeta > metaSize) warn(`${entry}: offset to metadata (${offMeta}) past end of file (${metaSize})`);
    if (offData < labelSize) warn(`${entry}: offset to log (${offData}) before end of label record (${labelSize})`);
    if (typeof logSize === 'number' && offData > logSize) warn(`${entry}: offset to log (${offData}) past end of file (${logSize})`);
    if (labelStart.sec !== 0 && subtractTimestampsDouble(stamp, labelStart) < 0) {
      warn(`${entry}: timestamp (${stampText(stamp)}) less than log label timestamp (${stampText(labelStart)})`);
    }
    if (i > 0) {
      const last = index.stamp(i - 1);
      const lastVol = index.vol[i - 1];
      if (subtractTimestampsDouble(stamp, last) < 0) warn(`${entry}: timestamp (${stampText(stamp)}) went backwards in time (from ${stampText(last)} at [entry ${i}])`);
      if (vol < lastVol) warn(`${entry}: volume number (${vol}) decreased (from ${lastVol} at [entry ${i}])`);
      if (vol === lastVol && offMeta < index.offMeta[i - 1]) warn(`${entry}: offset to metadata (${offMeta}) decreased (from ${index.offMeta[i - 1]} at [entry ${i}])`);
      if (vol === lastVol && offData < index.offData[i - 1]) warn(`${entry}: offset to log (${offData}) decreased (from ${index.offData[i - 1]} at [entry ${i}])`);
    }
  }
  return out;
}

/** A timestamp as pmlogcheck prints it: seconds, then nanoseconds as C's %09d (sign included). */
function stampText(t: Timestamp): string {
  const ns = t.nsec < 0 ? `-${String(-t.nsec).padStart(8, '0')}` : String(t.nsec).padStart(9, '0');
  return `${t.sec}.${ns}`;
}
