// C's double → integer casts (c-numeric.ts) against libpcp 6.0.3: pmExtractValue from DOUBLE
// and FLOAT range-checks with comparisons that NaN fails, so a NaN reaches the bare cast —
// libpcp's own compiled (int32_t), (uint32_t), (int64_t) and (uint64_t) of NaN — through
// test/oracle/extract-value.py (ctypes). The unsigned 64-bit cast of NaN is the case two copies
// of these casts once disagreed on (2^63 against 0).
import { describe, expect, it } from 'vitest';
import { queryPythonOracle } from '../../test/oracle';
import { doubleToInt32, doubleToInt64, doubleToUint32, doubleToUint64 } from './c-numeric';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_U32, PM_TYPE_U64, PM_VAL_DPTR } from './types';

interface Reply {
  readonly sts: number;
  readonly value: number | string | null;
}

const CASTS: ReadonlyArray<readonly [number, (x: number) => number | bigint]> = [
  [PM_TYPE_32, doubleToInt32],
  [PM_TYPE_U32, doubleToUint32],
  [PM_TYPE_64, doubleToInt64],
  [PM_TYPE_U64, doubleToUint64],
];

describe('C casts of NaN against libpcp', () => {
  it.each([PM_TYPE_DOUBLE, PM_TYPE_FLOAT])('(intN_t)NaN from type %i as pmExtractValue stores it', async (itype) => {
    const request = CASTS.map(([otype]) => ({ itype, otype, valfmt: PM_VAL_DPTR, value: 'NaN' }));
    const reply = await queryPythonOracle<Reply[]>('extract-value.py', request);
    expect(reply.map((r) => r.sts)).toEqual([0, 0, 0, 0]);
    expect(reply.map((r) => String(r.value))).toEqual(CASTS.map(([, cast]) => String(cast(NaN))));
    // libpcp 6.0.3 on x86-64: the unsigned 64-bit cast goes through the signed conversion.
    expect(doubleToUint64(NaN)).toBe(1n << 63n);
  });
});
