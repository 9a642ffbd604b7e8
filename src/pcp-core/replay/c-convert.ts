// C's double → integer conversions as gcc compiles them for x86-64, where libpcp's
// interpolation stores its results (archive-format.md §7.4.5). In-range values truncate toward
// zero; out-of-range values and NaN give the "integer indefinite" pattern, which for unsigned
// targets passes through the signed 64-bit conversion first.

const TWO_63 = 9223372036854775808;
const INT64_MIN = -(1n << 63n);

/** (int32_t)x: cvttsd2si with a 32-bit destination. */
export function doubleToInt32(x: number): number {
  if (!(x > -2147483649 && x < 2147483648)) return -2147483648;
  return Math.trunc(x) | 0;
}

/** (uint32_t)x: truncated through a 64-bit signed conversion, low 32 bits kept. */
export function doubleToUint32(x: number): number {
  if (!(x > -TWO_63 - 1 && x < TWO_63)) return 0;
  const t = Math.trunc(x);
  if (t >= 0 && t < 4294967296) return t;
  // Low 32 bits of the 64-bit two's complement value (exact in doubles below 2^53).
  if (Math.abs(t) < 9007199254740992) return ((t % 4294967296) + 4294967296) % 4294967296;
  return Number(BigInt.asUintN(32, BigInt(t)));
}

/** (int64_t)x: cvttsd2si; out of range or NaN gives INT64_MIN. */
export function doubleToInt64(x: number): bigint {
  if (!(x >= -TWO_63 && x < TWO_63)) return INT64_MIN;
  return BigInt(Math.trunc(x));
}

/**
 * (uint64_t)x as gcc emits it: below 2^63 a signed conversion (negative values wrap), from
 * 2^63 the value minus 2^63 converted then the top bit set; beyond 2^64 or NaN gives 0.
 */
export function doubleToUint64(x: number): bigint {
  if (x < TWO_63) {
    return BigInt.asUintN(64, doubleToInt64(x));
  }
  const low = x - TWO_63;
  if (!(low < TWO_63)) return 0n;
  return BigInt(Math.trunc(low)) + (1n << 63n);
}
