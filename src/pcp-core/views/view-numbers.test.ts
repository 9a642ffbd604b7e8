// parseUlong: glibc strtoul(…, 0) then a 32-bit cast, whole word only (pmchart's global and
// tab values; the same cases go through pmchart itself in view-parser.conformance.test.ts).
import { expect, it } from 'vitest';
import { parseUlong } from './view-numbers';

it.each([
  ['600', 600], ['0x1f', 31], ['0X1F', 31], ['010', 8], ['0', 0], ['', 0], ['+7', 7], ['-1', 4294967295],
  ['4294967296', 0], ['99999999999999999999999', 4294967295], [' 5', 5],
])('%j → %d', (text, value) => expect(parseUlong(text)).toBe(value));

it.each(['12px', '08', '0x', '+', '-', ' ', '1 '])('%j is refused', (text) => expect(parseUlong(text)).toBeUndefined());
