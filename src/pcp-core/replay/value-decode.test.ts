// Regression tests for crashers the record fuzzer (archive/record-fuzz.test.ts) found in the
// replay's value decoder: reads past a value block ended in a RangeError out of `values`.
import { describe, expect, it } from 'vitest';
import { PM_TYPE_EVENT, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import { decodeValue } from './value-decode';
import { PM_VAL_DPTR } from './log-record';

/** A value block (header word, then `payload`) at offset 0 of a record view, which ends
 *  with the record's 4-byte trailer. */
function block(type: number, payload: number[]): DataView {
  const bytes = new Uint8Array(4 + payload.length + 4);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, ((type << 24) | (4 + payload.length)) >>> 0);
  bytes.set(payload, 4);
  return view;
}

describe('replay value decoding of damaged blocks', () => {
  it('keeps a payload too short for the descriptor type as raw bytes (was: RangeError)', () => {
    // A U64 descriptor over a 4-byte payload at the very end of the record.
    expect(decodeValue(block(PM_TYPE_U64, [1, 2, 3, 4]), 0, PM_VAL_DPTR, PM_TYPE_U64)).toEqual(Uint8Array.of(1, 2, 3, 4));
  });

  it('keeps an event array whose parameter length overruns the block as raw bytes, as dump does (was: RangeError)', () => {
    // nrecords 1; timestamp; flags 0; nparams 2; parameter 1: pmid, U32 of 8 bytes, value;
    // parameter 2 claims 0x684062 bytes.
    const payload = [0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 7, PM_TYPE_U32, 0, 0, 8, 0, 0, 0, 42, 0, 0, 0, 8, PM_TYPE_U32, 0x68, 0x40, 0x62];
    const events = decodeValue(block(PM_TYPE_EVENT, payload), 0, PM_VAL_DPTR, PM_TYPE_EVENT);
    expect(events).toEqual(Uint8Array.from(payload));
  });
});
