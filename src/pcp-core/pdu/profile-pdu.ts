// PROFILE (0x7002): the instance selection pmcd applies to later fetches of one ctxid slot
// (pdu-protocol.md §3.10). A global include/exclude state, then per-indom entries whose
// instance lists invert that entry's state. pmcd replies nothing on success.
import type { InDom } from '../types';
import { PDU_PROFILE } from './constants';
import { PduWriter, expectEnd, pduReader, readCount, type Pdu } from './pdu-buffer';

export interface InDomProfile {
  readonly indom: InDom;
  /** PM_PROFILE_INCLUDE (0): the list is excluded; PM_PROFILE_EXCLUDE (1): only the list. */
  readonly state: number;
  readonly instances: readonly number[];
}

export interface Profile {
  readonly state: number;
  readonly entries: readonly InDomProfile[];
}

export function encodeProfile(profile: Profile, ctxid = 0, from = 0): Uint8Array {
  const total = profile.entries.reduce((sum, e) => sum + e.instances.length, 0);
  const w = new PduWriter(PDU_PROFILE, from, 28 + 16 * profile.entries.length + 4 * total);
  w.i32(ctxid).i32(profile.state).i32(profile.entries.length).i32(0);
  for (const e of profile.entries) w.u32(e.indom).i32(e.state).i32(e.instances.length).i32(0);
  for (const e of profile.entries) for (const inst of e.instances) w.i32(inst);
  return w.finish();
}

export interface ProfilePdu {
  readonly ctxid: number;
  readonly profile: Profile;
}

export function decodeProfile(pdu: Pdu, peer: string): ProfilePdu {
  const c = pduReader(pdu, PDU_PROFILE, peer);
  const ctxid = c.i32('ctxid');
  if (ctxid < 0) c.fail(`ctxid ${ctxid} is negative`, 12);
  const state = c.i32('global state');
  const n = readCount(c, 'numprof', 16);
  c.skip(4, 'pad');
  const heads: Array<{ indom: InDom; state: number; numinst: number }> = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const indom = c.u32('indom') as InDom;
    const entryState = c.i32('state');
    const numinst = readCount(c, 'numinst', 0);
    c.skip(4, 'pad');
    total += numinst;
    heads.push({ indom, state: entryState, numinst });
  }
  if (total * 4 > c.remaining) c.fail(`instance lists need ${total * 4} bytes, ${c.remaining} left`);
  const entries = heads.map((h) => {
    const instances: number[] = [];
    for (let j = 0; j < h.numinst; j++) instances.push(c.i32('inst'));
    return { indom: h.indom, state: h.state, instances };
  });
  expectEnd(c, false);
  return { ctxid, profile: { state, entries } };
}
