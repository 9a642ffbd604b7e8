import { describe, expect, it } from 'vitest';
import { decodeLabel, type LabelExpectation } from './label';
import { DecodeError, PM_ERR_FEATURE, PM_ERR_LABEL, PM_ERR_NODATA } from '../errors';
import { encodeLabel } from './testing/archive-builder';
import { ByteWriter } from '../io/byte-writer';

const start = { sec: 1648968655, nsec: 401624349 };
const expectVol = (vol: number, checkFeatures = true): LabelExpectation => ({ vol, checkFeatures });

/** Decodes `bytes` as a whole file holding a label and at least one more byte. */
function decode(bytes: Uint8Array, expect: LabelExpectation, fileSize = bytes.length + 100): ReturnType<typeof decodeLabel> {
  return decodeLabel(bytes, fileSize, 'x.0', expect);
}

function code(f: () => unknown): number | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return e.code;
    throw e;
  }
  return undefined;
}

describe('labels', () => {
  it('decodes V3 and V2 labels (§3.1, §3.2)', () => {
    const v3 = decode(encodeLabel({ version: 3, start, vol: -1, pid: 823265, hostname: 'bozo-vm.localdomain', timezone: 'AEST-10', zoneinfo: ':Australia/Melbourne' }), expectVol(-1));
    expect(v3).toEqual({
      version: 3,
      magic: 0x50052603,
      pid: 823265,
      start,
      vol: -1,
      features: 0,
      hostname: 'bozo-vm.localdomain',
      timezone: 'AEST-10',
      zoneinfo: ':Australia/Melbourne',
    });
    const v2 = decode(encodeLabel({ version: 2, start: { sec: 1101337806, nsec: 248424000 }, vol: 3, timezone: 'CET-1' }), expectVol(3));
    expect(v2).toMatchObject({ version: 2, vol: 3, timezone: 'CET-1', zoneinfo: '', start: { sec: 1101337806, nsec: 248424000 } });
  });

  it('reads V3 seconds low word first (§2.3)', () => {
    const bytes = encodeLabel({ version: 3, start, vol: 0 });
    new DataView(bytes.buffer).setUint32(16, 1);
    expect(decode(bytes, expectVol(0)).start.sec).toBe(2 ** 32 + start.sec);
  });

  it('gives libpcp verdicts for damaged labels (§3.3)', () => {
    const good = encodeLabel({ version: 2, start, vol: 0 });
    const mutate = (f: (v: DataView) => void): Uint8Array => {
      const b = good.slice();
      f(new DataView(b.buffer));
      return b;
    };
    expect(code(() => decode(good.subarray(0, 4), expectVol(0), 4))).toBe(PM_ERR_NODATA);
    expect(code(() => decode(good.subarray(0, 42), expectVol(0), 42))).toBe(PM_ERR_LABEL);
    expect(code(() => decode(mutate((v) => v.setUint32(128, 64)), expectVol(0)))).toBe(PM_ERR_LABEL);
    expect(code(() => decode(mutate((v) => v.setUint8(7, 0xff)), expectVol(0)))).toBe(PM_ERR_LABEL);
    expect(code(() => decode(mutate((v) => v.setUint32(4, 0xdeadbe02)), expectVol(0)))).toBe(PM_ERR_LABEL);
    expect(code(() => decode(mutate((v) => v.setUint32(0, 808)), expectVol(0)))).toBe(PM_ERR_LABEL);
    expect(code(() => decode(good, expectVol(1)))).toBe(PM_ERR_LABEL);
    // A file holding only its label is empty.
    expect(code(() => decode(good, expectVol(0), good.length))).toBe(PM_ERR_NODATA);
    // V3 feature bits other than QA: refused unless checking is off.
    const featured = encodeLabel({ version: 3, start, vol: 0, features: 0x80000001 });
    expect(code(() => decode(featured, expectVol(0)))).toBe(PM_ERR_FEATURE);
    expect(decode(featured, expectVol(0, false)).features).toBe(0x80000001);
    expect(decode(encodeLabel({ version: 3, start, vol: 0, features: 0x80000000 }), expectVol(0)).features).toBe(0x80000000);
  });

  it('names the file and the reason', () => {
    try {
      decode(new ByteWriter().u32(132).u32(0x50052601).finish(), expectVol(0));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      expect((e as DecodeError).describe()).toBe('x.0[label] at offset 0: Illegal label record at start of a PCP archive log file (bad label version: 1 not 2 or 3 as expected)');
    }
  });

  it('copies at most size-1 bytes of each string and stops at NUL', () => {
    const long = 'h'.repeat(300);
    const l = decode(encodeLabel({ version: 2, start, vol: 0, hostname: long }), expectVol(0));
    expect(l.hostname).toBe('h'.repeat(63));
  });
});
