// The two primitives every PDU codec is built on: PduWriter, which lays out one outgoing PDU
// (header, big-endian words, length-prefixed strings padded to 4 bytes), and pduReader, a
// bounds-checked Cursor over one received PDU whose short reads fail with PM_ERR_IPC and name
// the peer, the PDU type and the offset inside the PDU (pdu-protocol.md §1.2–§1.5).
import { ByteWriter } from '../io/byte-writer';
import { Cursor } from '../io/cursor';
import { DecodeError, PM_ERR_IPC } from '../errors';
import { PDU_HEADER_BYTES, pad4, pduTypeName } from './constants';

/** One whole PDU as received: `bytes` holds the header too, `bytes.length === len`. */
export interface Pdu {
  readonly type: number;
  readonly from: number;
  readonly bytes: Uint8Array;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8');

/** libpcp pads strings with '~' (§1.5); receivers ignore padding, so this only makes our
 * requests byte-identical to libpcp's. */
const PAD_BYTE = 0x7e;

/** Builds one PDU on the core's byte writer. The header is filled in by `finish`. */
export class PduWriter extends ByteWriter {
  constructor(
    private readonly type: number,
    private readonly from = 0,
    sizeHint = 64,
  ) {
    super(Math.max(sizeHint, PDU_HEADER_BYTES));
    this.fill(0, PDU_HEADER_BYTES);
  }

  /** Pads with '~' to the next multiple of 4 (relative to the PDU start). */
  pad(): this {
    return this.fill(PAD_BYTE, pad4(this.length) - this.length);
  }

  /** Writes `namelen i32` and the bytes, padded: the name-list entry form (§3.6). */
  lengthPrefixed(bytes: Uint8Array): this {
    return this.i32(bytes.length).bytes(bytes).pad();
  }

  /** The finished PDU: a copy exactly `len` bytes long with the header filled in. */
  override finish(): Uint8Array<ArrayBuffer> {
    this.patchI32(0, this.length).patchI32(4, this.type).patchI32(8, this.from);
    return super.finish();
  }
}

export function encodeUtf8(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

export function decodeUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** Splits a whole PDU's header off (the reassembler guarantees len === bytes.length). */
export function pduFromBytes(bytes: Uint8Array, peer: string): Pdu {
  if (bytes.length < PDU_HEADER_BYTES) {
    throw new DecodeError(PM_ERR_IPC, peer, 0, 'PDU header', `${bytes.length} bytes, a header needs ${PDU_HEADER_BYTES}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = view.getInt32(0);
  if (len !== bytes.length) {
    throw new DecodeError(PM_ERR_IPC, peer, 0, 'PDU header', `length word ${len} but ${bytes.length} bytes`);
  }
  return { type: view.getInt32(4), from: view.getInt32(8), bytes };
}

/**
 * A Cursor positioned after the header of `pdu`, after checking that it has the expected
 * type. Short reads throw DecodeError(PM_ERR_IPC) naming the peer and PDU type.
 */
export function pduReader(pdu: Pdu, expectedType: number, peer: string): Cursor {
  const record = `PDU ${pduTypeName(expectedType)}`;
  const c = new Cursor(pdu.bytes, peer, 0, record, PM_ERR_IPC);
  if (pdu.type !== expectedType) c.fail(`expected ${pduTypeName(expectedType)}, got ${pduTypeName(pdu.type)}`, 4);
  c.seek(PDU_HEADER_BYTES);
  return c;
}

/** Throws unless the cursor consumed the PDU exactly (up to padding to 4 bytes). */
export function expectEnd(c: Cursor, padded = true): void {
  const end = c.bytes.length;
  const ok = padded ? c.pos === end || pad4(c.pos) === end : c.pos === end;
  if (!ok) c.fail(`${end - c.pos} unexpected bytes after the last field`);
}

/** Reads a count field and checks it against what the rest of the PDU could hold. */
export function readCount(c: Cursor, what: string, minBytesEach: number): number {
  const at = c.pos;
  const n = c.i32(what);
  if (n < 0) c.fail(`${what} ${n} is negative`, at);
  if (minBytesEach > 0 && n * minBytesEach > c.remaining) c.fail(`${what} ${n} needs ${n * minBytesEach} bytes, ${c.remaining} left`, at);
  return n;
}

/** A length-prefixed byte string padded to 4 bytes (§1.5): a view, not a copy. */
export function readPaddedBytes(c: Cursor, what: string): Uint8Array {
  const at = c.pos;
  const n = c.i32(`${what} length`);
  if (n < 0) c.fail(`${what} length ${n} is negative`, at);
  const raw = c.bytesView(n, what);
  const padding = pad4(n) - n;
  if (padding > 0) c.skip(padding, `${what} padding`);
  return raw;
}

/** A length-prefixed UTF-8 string padded to 4 bytes; not NUL-terminated on the wire. */
export function readPaddedString(c: Cursor, what: string): string {
  return decodeUtf8(readPaddedBytes(c, what));
}
