import { describe, expect, it } from 'vitest';
import { decodeUnits, encodeUnits, formatInDom, formatPmId, indom, parsePmId, pmid, PM_ID_NULL, PM_INDOM_NULL } from './types';

describe('identifiers', () => {
  it.each([
    [2, 3, 3, 0x00800c03, '2.3.3'],
    [29, 0, 5, 0x07400005, '29.0.5'],
    [511, 2048, 17, 0x7fe00011, '511.2048.17'],
  ])('pmid(%i, %i, %i) packs and prints', (d, c, i, word, text) => {
    const id = pmid(d, c, i);
    expect(id).toBe(word);
    expect(formatPmId(id)).toBe(text);
    expect(parsePmId(text)).toBe(id);
  });

  it('prints the null identifiers as libpcp does', () => {
    expect(formatPmId(PM_ID_NULL)).toBe('PM_ID_NULL');
    expect(formatInDom(PM_INDOM_NULL)).toBe('PM_INDOM_NULL');
    expect(formatInDom(indom(29, 2))).toBe('29.2');
    expect(indom(29, 2)).toBe(0x07400002);
  });

  it('rejects malformed pmid text', () => {
    expect(parsePmId('1.2')).toBeUndefined();
    expect(parsePmId('512.0.0')).toBeUndefined();
  });
});

describe('units word', () => {
  it.each([0x00000000, 0x10010000, 0x01002000, 0x0f103000, 0x0f103600, 0x01f02000, 0x10f10000, 0xf0120600])('round-trips 0x%s', (word) => {
    expect(encodeUnits(decodeUnits(word))).toBe(word);
  });

  it('sign-extends dimensions and the count scale', () => {
    expect(decodeUnits(0xf0120600)).toEqual({ dimSpace: -1, dimTime: 0, dimCount: 1, scaleSpace: 2, scaleTime: 0, scaleCount: 6 });
    expect(decodeUnits(0x0f103000)).toEqual({ dimSpace: 0, dimTime: -1, dimCount: 1, scaleSpace: 0, scaleTime: 3, scaleCount: 0 });
  });
});
