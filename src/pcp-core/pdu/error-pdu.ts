// ERROR (0x7000) in its three roles (pdu-protocol.md §2.2–§2.4, §3.1, §5.1): pmcd's hello
// (20 bytes: code, version, feature word), a request's failure (16 bytes, negative code) and
// the state-change mask ahead of a fetch reply (positive code). Also the store ack (code 0).
import { PDU_ERROR, PDU_VERSION2 } from './constants';
import { PduWriter, expectEnd, pduReader, type Pdu } from './pdu-buffer';

export interface ErrorPdu {
  readonly code: number;
  /** Present only in 20-byte ERROR PDUs (the hello or a refusal). */
  readonly datum?: number;
}

export function encodeError(code: number, datum?: number, from = 0): Uint8Array {
  const w = new PduWriter(PDU_ERROR, from, 20).i32(code);
  if (datum !== undefined) w.u32(datum);
  return w.finish();
}

export function decodeError(pdu: Pdu, peer: string): ErrorPdu {
  const c = pduReader(pdu, PDU_ERROR, peer);
  if (pdu.bytes.length !== 16 && pdu.bytes.length !== 20) c.fail(`ERROR length ${pdu.bytes.length}, must be 16 or 20`, 0);
  const code = c.i32('code');
  const datum = pdu.bytes.length === 20 ? c.u32('datum') : undefined;
  expectEnd(c);
  return datum === undefined ? { code } : { code, datum };
}

/** The connection hello (§2.2). `code` is already in modern numbering (§2.4). */
export interface Hello {
  readonly code: number;
  readonly version: number;
  readonly features: number;
}

/** Maps a PCP 1.x error code (only ever seen in the hello) to the modern numbering (§2.4). */
export function helloCodeToModern(code: number): number {
  return code <= -1000 && code > -12345 ? code + 1000 - 12345 : code;
}

/** Encodes a hello as pmcd sends it; `code` is a modern code and goes out in 1.x numbering. */
export function encodeHello(features: number, code = 0): Uint8Array {
  const wire = code <= -12345 && code > -13345 ? code + 12345 - 1000 : code;
  const datum = code < 0 ? 0 : ((PDU_VERSION2 << 24) | (1 << 16) | (features & 0xffff)) >>> 0;
  return encodeError(wire, datum);
}

export function decodeHello(pdu: Pdu, peer: string): Hello {
  const c = pduReader(pdu, PDU_ERROR, peer);
  c.record = 'hello';
  if (pdu.bytes.length !== 20) c.fail(`hello is ${pdu.bytes.length} bytes, must be 20`, 0);
  const code = helloCodeToModern(c.i32('code'));
  const versionByte = c.u8('version');
  c.u8('licensed');
  const features = c.u16('features');
  if (code >= 0 && (versionByte & 0x80) !== 0) c.fail(`version byte 0x${versionByte.toString(16)} has bit 7 set`, 16);
  if (code > 0) c.fail(`hello code ${code} is positive`, 12);
  return { code, version: versionByte & 0x7f, features };
}
