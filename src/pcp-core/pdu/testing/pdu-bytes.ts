// Helpers for PDU tests: bytes from the hex dumps of pdu-protocol.md (words separated by
// spaces) and back, so tests can quote the observed traffic verbatim.
import { isPmError } from '../../errors';
import { pduFromBytes, type Pdu } from '../pdu-buffer';

/** "00000014 00007000 …" → bytes. Whitespace is ignored; the digit count must be even. */
export function hexBytes(text: string): Uint8Array {
  const digits = text.replace(/\s+/g, '');
  if (digits.length % 2 !== 0 || /[^0-9a-fA-F]/.test(digits)) throw new Error(`bad hex: ${text}`);
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Bytes → lower-case hex grouped in 4-byte words, as the doc prints PDUs. */
export function toHex(bytes: Uint8Array): string {
  const words: string[] = [];
  for (let i = 0; i < bytes.length; i += 4) {
    words.push([...bytes.subarray(i, i + 4)].map((b) => b.toString(16).padStart(2, '0')).join(''));
  }
  return words.join(' ');
}

/** Hex dump → a whole PDU. */
export function hexPdu(text: string): Pdu {
  return pduFromBytes(hexBytes(text), 'test');
}

/**
 * Runs a decode expected to fail and returns the error's full description (context, message
 * and detail), so a test can check both that it failed and why. Anything but a PmError —
 * or no error at all — is itself a failure.
 */
export function decodeFailure(decode: () => unknown): string {
  try {
    decode();
  } catch (e) {
    if (isPmError(e)) return e.describe();
    throw e;
  }
  throw new Error('decoding succeeded, a PmError was expected');
}

/** Hex of everything after the length word → a whole PDU with the length filled in. */
export function hexPduAfterLen(text: string): Pdu {
  const body = hexBytes(text);
  const bytes = new Uint8Array(4 + body.length);
  new DataView(bytes.buffer).setInt32(0, bytes.length);
  bytes.set(body, 4);
  return pduFromBytes(bytes, 'test');
}
