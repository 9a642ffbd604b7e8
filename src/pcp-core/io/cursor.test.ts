import { describe, expect, it } from 'vitest';
import { decodeCStringAt, decodeCStringTable } from './cursor';

/** A string table as an instance domain record stores it: NUL-terminated names, their offsets. */
function table(names: readonly string[], lead = 3): { bytes: Uint8Array; start: number; offsets: Int32Array } {
  const enc = new TextEncoder();
  const parts = names.map((n) => enc.encode(`${n}\0`));
  const bytes = new Uint8Array(lead + parts.reduce((a, p) => a + p.length, 0));
  bytes.fill(0xff, 0, lead);
  const offsets = new Int32Array(names.length);
  let at = lead;
  parts.forEach((p, i) => {
    offsets[i] = at - lead;
    bytes.set(p, at);
    at += p.length;
  });
  return { bytes, start: lead, offsets };
}

describe('decodeCStringTable', () => {
  it('gives each name as decodeCStringAt does, for ASCII and UTF-8 tables', () => {
    for (const names of [['000001 /sbin/init', 'sda', '', 'x'.repeat(300)], ['cpu0', 'café', '日本', 'z']]) {
      const { bytes, start, offsets } = table(names);
      const got = decodeCStringTable(bytes, start, bytes.length, offsets);
      expect(got).toEqual(names);
      expect(got).toEqual(Array.from(offsets, (o) => decodeCStringAt(bytes, start + o, bytes.length)));
    }
  });

  it('gives null for a negative offset (a delta’s deletion) and stops at the table end without a NUL', () => {
    const { bytes, start, offsets } = table(['one', 'two']);
    const cut = bytes.length - 1; // "two" loses its NUL
    const got = decodeCStringTable(bytes, start, cut, Int32Array.from([offsets[1] ?? 0, -1, offsets[0] ?? 0, cut - start]));
    expect(got).toEqual(['two', null, 'one', '']);
  });

  it('names sharing bytes (one offset inside another name) read as C does', () => {
    const { bytes, start } = table(['/usr/bin/bash']);
    expect(decodeCStringTable(bytes, start, bytes.length, Int32Array.from([0, 9, 13]))).toEqual(['/usr/bin/bash', 'bash', '']);
  });
});
