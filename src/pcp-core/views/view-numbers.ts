// Numbers in view files as pmchart reads them: `global` and `tab` values through
// (uint)strtoul(word, &end, 0), accepted only when the whole word converts (so `0x1f` and
// `010` are hex and octal, `-1` wraps, and an empty quoted word is 0, all as in pmchart
// 6.0.3); `scale` limits through strtod (../c-numeric.ts).
import { isCSpace } from '../c-numeric';

const ULONG_MAX = (1n << 64n) - 1n;

/** glibc strtoul(text, &end, 0) on a 64-bit host, cast to a 32-bit unsigned; undefined unless the whole text converts. */
export function parseUlong(text: string): number | undefined {
  let i = 0;
  while (isCSpace(text[i])) i++;
  let neg = false;
  if (text[i] === '+' || text[i] === '-') {
    neg = text[i] === '-';
    i++;
  }
  let base = 10n;
  if (text[i] === '0') {
    if ((text[i + 1] === 'x' || text[i + 1] === 'X') && /[0-9a-fA-F]/.test(text[i + 2] ?? '')) {
      base = 16n;
      i += 2;
    } else {
      base = 8n;
    }
  }
  const digitsStart = i;
  let value = 0n;
  for (; i < text.length; i++) {
    const d = parseInt(text[i] ?? '', 16);
    if (Number.isNaN(d) || BigInt(d) >= base) break;
    value = value * base + BigInt(d);
    if (value > ULONG_MAX) value = ULONG_MAX + 1n;
  }
  // No digits at all: strtoul leaves `end` at the very start of the text, so only "" passes.
  if (i === digitsStart) return text.length === 0 ? 0 : undefined;
  if (i !== text.length) return undefined;
  let result = value > ULONG_MAX ? ULONG_MAX : value;
  if (neg && value <= ULONG_MAX) result = (-result) & ULONG_MAX;
  return Number(result & 0xffffffffn);
}
