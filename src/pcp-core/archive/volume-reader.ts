// Reads framed records of one data volume, forwards or backwards, the way libpcp's
// __pmLogRead does (archive-format.md §2.1, §7.3, §9.1): forwards, fewer than 4 bytes where
// a length is due is the end of the volume; a length below 8, a body or trailer cut short, or
// a trailer that differs from the header is PM_ERR_LOGREC. Backwards, the 4 bytes before the
// position are the previous record's trailer. Reads go through a window of the volume so
// that consecutive records cost one ByteSource read per window, not one per record.
import type { ByteSource } from '../io/byte-source';
import { DecodeError, PM_ERR_LOGREC } from '../errors';
import type { LogFormat } from './log-format';
import type { ArchiveLabel } from './label';

/** Bytes fetched per window (more when a record is larger). */
const WINDOW_BYTES = 1 << 20;

/** A whole record inside the current window: `bytes[start]` is its length word. */
export interface RecordFrame {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly start: number;
  /** Absolute offset of the record in the volume. */
  readonly offset: number;
  readonly length: number;
}

export class VolumeReader {
  private window: Uint8Array = new Uint8Array(0);
  private windowView: DataView = new DataView(this.window.buffer);
  /** Absolute offset of window[0]. */
  private windowStart = 0;

  constructor(
    readonly source: ByteSource,
    readonly vol: number,
    readonly label: ArchiveLabel,
    readonly format: LogFormat,
  ) {}

  get size(): number {
    return this.source.size;
  }

  get name(): string {
    return this.source.name;
  }

  /** Raw bytes of the volume (uncompressed), for readers that frame records themselves. */
  read(offset: number, length: number): Promise<Uint8Array> {
    return this.source.read(offset, length);
  }

  /** Makes [offset, offset+length) available in the window, reading ahead in `direction`. */
  private async ensure(offset: number, length: number, forward: boolean): Promise<void> {
    if (offset >= this.windowStart && offset + length <= this.windowStart + this.window.length) return;
    const span = Math.max(length, WINDOW_BYTES);
    const from = forward ? offset : Math.max(0, offset + length - span);
    const to = Math.min(this.size, forward ? offset + span : offset + length);
    const bytes = await this.source.read(from, to - from);
    this.window = bytes;
    this.windowView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.windowStart = from;
  }

  private fail(offset: number, detail: string): never {
    throw new DecodeError(PM_ERR_LOGREC, this.name, offset, 'data record', detail);
  }

  /**
   * The record starting at `offset`, or null at the end of the volume (fewer than 4 bytes
   * left where a length word is due). Throws PM_ERR_LOGREC for a broken frame.
   */
  async frameAt(offset: number): Promise<RecordFrame | null> {
    // Only a damaged index can ask for a negative or absurd offset.
    if (offset < 0 || !Number.isSafeInteger(offset)) this.fail(0, `bad offset ${offset}`);
    if (this.size - offset < 4) return null;
    await this.ensure(offset, 4, true);
    const head = this.windowView.getInt32(offset - this.windowStart);
    if (head < 8) this.fail(offset, `bad record length ${head}`);
    if (offset + head > this.size) this.fail(offset, `unexpected end of file: record of ${head} bytes, ${this.size - offset} left`);
    await this.ensure(offset, head, true);
    const start = offset - this.windowStart;
    const trailer = this.windowView.getInt32(start + head - 4);
    if (trailer !== head) this.fail(offset, `length mismatch: header ${head} != trailer ${trailer}`);
    return { bytes: this.window, view: this.windowView, start, offset, length: head };
  }

  /**
   * The record ending at `end`, or null when `end` is at or before the label's end (the
   * start of the volume). Throws PM_ERR_LOGREC for a broken frame.
   */
  async frameBefore(end: number): Promise<RecordFrame | null> {
    if (end < 0 || !Number.isSafeInteger(end)) this.fail(0, `bad offset ${end}`);
    if (end <= this.format.labelSize) return null;
    // The 4 bytes before `end` must exist; past the file's end they read short.
    if (end > this.size) this.fail(end, `position ${end} is past the end of the volume (${this.size} bytes)`);
    await this.ensure(end - 4, 4, false);
    const trailer = this.windowView.getInt32(end - 4 - this.windowStart);
    // libpcp: rlen = trailer - 8 must be >= 0 and no more than the position.
    if (trailer < 8 || trailer - 8 > end) this.fail(end - 4, `bad record length ${trailer} in trailer`);
    const offset = end - trailer;
    if (offset < 0) this.fail(end - 4, `record of ${trailer} bytes would start before the file`);
    await this.ensure(offset, trailer, false);
    const start = offset - this.windowStart;
    const head = this.windowView.getInt32(start);
    if (head !== trailer) this.fail(offset, `length mismatch: header ${head} != trailer ${trailer}`);
    return { bytes: this.window, view: this.windowView, start, offset, length: trailer };
  }
}
