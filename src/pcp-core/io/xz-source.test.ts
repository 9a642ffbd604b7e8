// XzSource on a small 3-block .xz fixture (made with `xz --block-size=512`): the layout read
// from the index, reads inside and across blocks, and damage reported as PM_ERR_LOGREC.
import { describe, expect, it } from 'vitest';
import { MemorySource } from './memory-source';
import { XzSource } from './xz-source';
import { readXzLayout } from './xz-layout';
import { ByteCache } from './byte-cache';
import { PM_ERR_LOGREC, PmError } from '../errors';

/** 40 lines "line NNNN of a small test volume\n" (1320 bytes) in 3 xz blocks, CRC64. */
const FIXTURE =
  '/Td6WFoAAATm1rRGAgAhARYAAAB0L+Wj4AH/AEpdADYaSh8IoCpN08iDjP9/QOMX4ur45qHgOylZ8ikHc9ITFfECFEmKqn4se6DUqBdBIgUEiB4V1M5/AZFlFvPyRDC+Lv9ZY3BXQUcAAAAAjJPwRgZzFrACACEBFgAAAHQv5aPgAf8ATF0AMJssQHQzUVGumH9K/3Pe7l7AUNEJgfKUvQQYZFVJ6qJQ87n1RXJacDCmu9KFm5TkOmmWIgVNj86CamRsWDg7lbW3XJST3nf1Oj1uAADwX2ka5pGlkAIAIQEWAAAAdC/lo+ABJwA8XQA0m4jOdIMdEDz6LqMBx6GveH3GC5MPZJFijV3zoWm6KOLzy7j67n0Tcy/khXKI0QxIZO0iGrGP+doUowAAkuTO9m1eYOcAA2aABGiABFioAgBhI1xkFBc7MAMAAAAABFla';
const compressed = Uint8Array.from(atob(FIXTURE), (c) => c.charCodeAt(0));
const text = Array.from({ length: 40 }, (_, i) => `line ${String(i).padStart(4, '0')} of a small test volume\n`).join('');
const whole = new TextEncoder().encode(text);

async function failure(p: Promise<unknown>): Promise<PmError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  if (!(e instanceof PmError)) throw new Error(`expected a PmError, got ${String(e)}`);
  return e;
}

describe('xz layout and source', () => {
  it('reads the block index', async () => {
    const layout = await readXzLayout(new MemorySource('small.xz', compressed));
    expect(layout.streams).toHaveLength(1);
    expect(layout.streams[0].checkType).toBe(4);
    expect(layout.blocks.map((b) => [b.uncompressedOffset, b.uncompressedSize])).toEqual([[0, 512], [512, 512], [1024, 296]]);
    expect(layout.uncompressedSize).toBe(1320);
  });

  it('reads inside and across blocks', async () => {
    const src = await XzSource.open(new MemorySource('small.xz', compressed), new ByteCache(1 << 20));
    expect(src.size).toBe(whole.length);
    for (const [offset, length] of [[0, 5], [500, 30], [510, 600], [0, 2000], [1319, 5], [1320, 1], [700, 0]]) {
      expect(await src.read(offset, length), `read(${offset}, ${length})`).toEqual(whole.subarray(Math.min(offset, 1320), Math.min(offset + length, 1320)));
    }
    await src.close();
  });

  it('reports damage as a corrupted record, naming the file', async () => {
    const cut = await failure(XzSource.open(new MemorySource('cut.xz', compressed.subarray(0, 200))));
    expect(cut.code).toBe(PM_ERR_LOGREC);
    expect(cut.describe()).toMatch(/^cut\.xz \(xz: .*\): Corrupted record in a PCP archive log$/);
    const flipped = compressed.slice();
    flipped[60] ^= 0x40; // inside the first block's compressed data
    const src = await XzSource.open(new MemorySource('flipped.xz', flipped));
    const bad = await failure(src.read(0, 10));
    expect(bad.code).toBe(PM_ERR_LOGREC);
    expect(bad.describe()).toContain('flipped.xz (xz block at offset 12');
    expect(await src.read(600, 5)).toEqual(whole.subarray(600, 605)); // other blocks still read
  });
});
