// CREDS (0x700c): the client's first PDU, naming protocol version 2 and the feature flags it
// requests (pdu-protocol.md §2.5). pmcd answers nothing on success. Decoding is used by the
// bridge, which lets through only a plain version-2 CREDS with flags 0 (§8.5).
import { CVERSION, PDU_CREDS, PDU_VERSION2 } from './constants';
import { PduWriter, expectEnd, pduReader, readCount, type Pdu } from './pdu-buffer';

export interface Credential {
  /** Credential type; only 1 (CVERSION) is defined. */
  readonly type: number;
  readonly version: number;
  readonly flags: number;
}

/** libpcp allows at most 1024 credential words (§1.4). */
const MAX_CREDS = 1024;

export function encodeCreds(flags = 0, version = PDU_VERSION2, from = 0): Uint8Array {
  return new PduWriter(PDU_CREDS, from, 20).i32(1).u8(CVERSION).u8(version).u16(flags).finish();
}

export function decodeCreds(pdu: Pdu, peer: string): Credential[] {
  const c = pduReader(pdu, PDU_CREDS, peer);
  const at = c.pos;
  const n = readCount(c, 'numcreds', 4);
  if (n > MAX_CREDS) c.fail(`numcreds ${n} exceeds ${MAX_CREDS}`, at);
  const creds: Credential[] = [];
  for (let i = 0; i < n; i++) {
    creds.push({ type: c.u8('cred type'), version: c.u8('version'), flags: c.u16('flags') });
  }
  expectEnd(c, false);
  return creds;
}
