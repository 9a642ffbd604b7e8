// tarFiles: header fields, checksum, padding and the end marker, read back by hand here;
// GNU tar itself unpacks the result in tar.conformance.test.ts.
import { expect, it } from 'vitest';
import { tarFiles, tarParts, tarSize } from './tar';

const text = (b: Uint8Array, at: number, n: number): string => new TextDecoder().decode(b.subarray(at, at + n)).replace(/\0.*$/s, '');

it('writes ustar headers, padded data and two zero blocks', () => {
  const data = new Uint8Array(700).map((_, i) => i & 0xff);
  const tar = tarFiles([{ name: 'x.meta', bytes: data, mtimeSec: 1700000000 }, { name: 'x.0', bytes: new Uint8Array(0), mtimeSec: 0 }]);
  expect(tar.length).toBe(512 + 1024 + 512 + 1024);
  expect(text(tar, 0, 100)).toBe('x.meta');
  expect(parseInt(text(tar, 124, 12), 8)).toBe(700);
  expect(parseInt(text(tar, 136, 12), 8)).toBe(1700000000);
  expect(text(tar, 257, 6)).toBe('ustar');
  const h = tar.slice(0, 512);
  const stored = parseInt(text(h, 148, 7), 8);
  h.fill(0x20, 148, 156);
  expect(h.reduce((a, b) => a + b, 0)).toBe(stored);
  expect(tar.subarray(512, 1212)).toEqual(data);
  expect(text(tar, 1536, 100)).toBe('x.0');
  expect(tar.subarray(2048).every((b) => b === 0)).toBe(true);
});

it('splits long paths into the prefix field and refuses what cannot fit', () => {
  const dir = 'd'.repeat(120);
  const tar = tarFiles([{ name: `${dir}/file.0`, bytes: new Uint8Array(1), mtimeSec: 0 }]);
  expect(text(tar, 0, 100)).toBe('file.0');
  expect(text(tar, 345, 155)).toBe(dir);
  expect(() => tarFiles([{ name: 'n'.repeat(300), bytes: new Uint8Array(0), mtimeSec: 0 }])).toThrow(/too long/);
});

it('writes a file given in pieces as the same bytes joined', () => {
  const whole = Uint8Array.from({ length: 1300 }, (_, i) => i % 251);
  const pieces = [whole.subarray(0, 7), whole.subarray(7, 700), whole.subarray(700)];
  expect(tarFiles([{ name: 'x.0', bytes: pieces, mtimeSec: 5 }])).toEqual(tarFiles([{ name: 'x.0', bytes: whole, mtimeSec: 5 }]));
});

it('hands the files back as parts without copying them', () => {
  const data = Uint8Array.from({ length: 700 }, (_, i) => i & 0xff);
  const parts = tarParts([{ name: 'x.meta', bytes: data, mtimeSec: 9 }]);
  expect(parts).toContain(data);
  expect(tarSize(parts)).toBe(512 + 1024 + 1024);
  const joined = new Uint8Array(tarSize(parts));
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length;
  }
  expect(joined).toEqual(tarFiles([{ name: 'x.meta', bytes: data, mtimeSec: 9 }]));
});
