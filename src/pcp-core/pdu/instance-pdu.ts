// Instance domains (pdu-protocol.md §3.9): INSTANCE_REQ lists a whole domain, maps an id to
// its name or a name to its id; INSTANCE answers with (inst, name) entries. Not filtered by
// the profile.
import { PM_IN_NULL, type InDom } from '../types';
import { PDU_INSTANCE, PDU_INSTANCE_REQ } from './constants';
import { PduWriter, encodeUtf8, expectEnd, pduReader, readCount, readPaddedString, type Pdu } from './pdu-buffer';

export interface InstanceReq {
  readonly indom: InDom;
  /** PM_IN_NULL unless looking one instance up by id. */
  readonly inst: number;
  /** '' unless looking one instance up by name. */
  readonly name: string;
}

export function encodeInstanceReq(req: InstanceReq, from = 0): Uint8Array {
  const w = new PduWriter(PDU_INSTANCE_REQ, from, 32 + req.name.length + 4);
  // The 8 unused bytes at 16 were a timestamp in protocol version 1.
  w.u32(req.indom).i32(0).i32(0).i32(req.inst);
  const name = encodeUtf8(req.name);
  w.i32(name.length);
  if (name.length > 0) w.bytes(name).pad();
  return w.finish();
}

export function decodeInstanceReq(pdu: Pdu, peer: string): InstanceReq {
  const c = pduReader(pdu, PDU_INSTANCE_REQ, peer);
  const indom = c.u32('indom') as InDom;
  c.skip(8, 'unused');
  const inst = c.i32('inst');
  const name = readPaddedString(c, 'name');
  expectEnd(c);
  return { indom, inst, name };
}

/** An INSTANCE reply: parallel arrays in pmcd's order. */
export interface InstanceReply {
  readonly indom: InDom;
  readonly instances: Int32Array;
  readonly names: string[];
}

export function encodeInstance(indom: InDom, instances: ArrayLike<number>, names: readonly string[], from = 0): Uint8Array {
  const w = new PduWriter(PDU_INSTANCE, from).u32(indom).i32(instances.length);
  for (let i = 0; i < instances.length; i++) {
    w.i32(instances[i] ?? PM_IN_NULL).lengthPrefixed(encodeUtf8(names[i] ?? ''));
  }
  return w.finish();
}

export function decodeInstance(pdu: Pdu, peer: string): InstanceReply {
  const c = pduReader(pdu, PDU_INSTANCE, peer);
  const indom = c.u32('indom') as InDom;
  const n = readCount(c, 'numinst', 8);
  const instances = new Int32Array(n);
  const names: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    instances[i] = c.i32('inst');
    names[i] = readPaddedString(c, 'instance name');
  }
  expectEnd(c);
  return { indom, instances, names };
}
