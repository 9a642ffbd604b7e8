// Value columns of the derived-metric evaluator: one node's values in one fetch as parallel
// arrays (instance ids, values). The value array's element type is the node's PCP type, so a
// store wraps or rounds exactly as the C member of pmAtomValue would: Int32Array for 32,
// Uint32Array for U32, BigInt64Array/BigUint64Array for 64/U64, Float32Array for FLOAT,
// Float64Array for DOUBLE, plain arrays for strings, aggregates and events
// (derived-units-conversion.md §4.2, §12).
import { bigintToFloat32 } from '../c-numeric';
import { PM_TYPE_32, PM_TYPE_64, PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_U32, PM_TYPE_U64 } from '../types';
import type { AtomValue } from '../types';

export type Vec = Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array | AtomValue[];

export interface Column {
  /** Number of values (the pmValueSet numval). */
  readonly n: number;
  readonly inst: Int32Array;
  readonly vals: Vec;
}

/** A node's outcome: its values, or a negative PCP error code. */
export type Outcome = Column | number;

export const EMPTY: Column = { n: 0, inst: new Int32Array(0), vals: new Float64Array(0) };

export function allocVec(type: number, n: number): Vec {
  switch (type) {
    case PM_TYPE_32:
      return new Int32Array(n);
    case PM_TYPE_U32:
      return new Uint32Array(n);
    case PM_TYPE_64:
      return new BigInt64Array(n);
    case PM_TYPE_U64:
      return new BigUint64Array(n);
    case PM_TYPE_FLOAT:
      return new Float32Array(n);
    case PM_TYPE_DOUBLE:
      return new Float64Array(n);
    default:
      return new Array<AtomValue>(n);
  }
}

/** The element as a JavaScript value: number for 32-bit and floating types, bigint for 64. */
export function elem(v: Vec, i: number): AtomValue {
  return v[i];
}

/** Converts an element of `type` to a double, as C's (double) cast. */
export function toDouble(x: AtomValue): number {
  return typeof x === 'bigint' ? Number(x) : (x as number);
}

/** Converts an element of `type` to float, as C's (float) cast (one rounding, also from 64 bits). */
export function toFloat(x: AtomValue): number {
  return typeof x === 'bigint' ? bigintToFloat32(x) : Math.fround(x as number);
}

/** Converts an integer element to bigint (for 64-bit arithmetic). */
export function toBig(x: AtomValue): bigint {
  return typeof x === 'bigint' ? x : BigInt(x as number);
}

/** Whether an element is non-zero in its own type. */
export function nonZero(x: AtomValue): boolean {
  return typeof x === 'bigint' ? x !== 0n : (x as number) !== 0;
}

/**
 * Stores a decoded fetch value into a column of `type`, normalising it to the C member:
 * 32-bit integers wrap, 64-bit integers are bigint, FLOAT rounds to single precision.
 */
export function store(v: Vec, i: number, x: AtomValue): void {
  if (v instanceof BigInt64Array || v instanceof BigUint64Array) v[i] = toBig(x);
  else if (Array.isArray(v)) v[i] = x;
  else v[i] = toDouble(x);
}

export function isColumn(o: Outcome): o is Column {
  return typeof o !== 'number';
}
