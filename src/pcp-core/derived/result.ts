// A derived metric's evaluated column as a fetch-result value set: 32-bit values in-situ,
// everything else in value blocks, as libpcp encodes derived values (derived-units-conversion.md
// §4.1). 64-bit values stay bigint, FLOAT and DOUBLE are numbers.
import type { Column } from './column';
import { PM_TYPE_32, PM_TYPE_U32, PM_VAL_DPTR, PM_VAL_INSITU } from '../types';
import type { AtomValue, PmId, ValueSet } from '../types';

export function toResultValueSet(pmid: PmId, type: number, c: Column): ValueSet {
  const values = new Array<AtomValue>(c.n);
  for (let i = 0; i < c.n; i++) values[i] = c.vals[i];
  return {
    pmid,
    numval: c.n,
    valfmt: type === PM_TYPE_32 || type === PM_TYPE_U32 ? PM_VAL_INSITU : PM_VAL_DPTR,
    inst: c.inst.slice(0, c.n),
    values,
  };
}
