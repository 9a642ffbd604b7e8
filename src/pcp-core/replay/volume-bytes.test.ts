// VolumeBytes reads the block after two blocks read in a row (a replay running forwards), so
// the replay finds it at hand; a read ahead that fails is reported by the replay's own read.
import { describe, expect, it } from 'vitest';
import { BLOCK_SIZE, VolumeBytes } from './volume-bytes';
import type { ReplayVolume } from './replay-source';

/** A volume of `blocks` blocks (each byte its block number) that logs the offsets read. */
function loggedVolume(blocks: number, failAt?: number): { volume: ReplayVolume; reads: number[] } {
  const reads: number[] = [];
  let failed = false;
  const size = blocks * BLOCK_SIZE;
  const volume: ReplayVolume = {
    size,
    read: (offset, length) => {
      reads.push(offset / BLOCK_SIZE);
      if (offset / BLOCK_SIZE === failAt && !failed) {
        failed = true;
        return new Promise((_, reject) => setTimeout(() => reject(new Error(`block ${failAt} unreadable`)), 20));
      }
      return Promise.resolve(new Uint8Array(Math.min(length, size - offset)).fill(offset / BLOCK_SIZE));
    },
  };
  return { volume, reads };
}

describe('VolumeBytes', () => {
  it('reads the next block ahead once two blocks were read in a row', async () => {
    const { volume, reads } = loggedVolume(4);
    const vb = new VolumeBytes(volume, 'test.0');
    expect((await vb.bytes(10, 4))[0]).toBe(0);
    expect(reads).toEqual([0]);
    expect((await vb.bytes(BLOCK_SIZE + 10, 4))[0]).toBe(1);
    expect(reads).toEqual([0, 1, 2]);
    expect((await vb.bytes(2 * BLOCK_SIZE + 10, 4))[0]).toBe(2);
    // Block 2 came from the read ahead; block 3 is the volume's last, read ahead in turn.
    expect(reads).toEqual([0, 1, 2, 3]);
    expect((await vb.bytes(3 * BLOCK_SIZE + 10, 4))[0]).toBe(3);
    expect(reads).toEqual([0, 1, 2, 3]);
  });

  it('reads no block ahead for a read away from the last one', async () => {
    const { volume, reads } = loggedVolume(6);
    const vb = new VolumeBytes(volume, 'test.0');
    await vb.bytes(3 * BLOCK_SIZE, 4);
    await vb.bytes(BLOCK_SIZE, 4);
    expect(reads).toEqual([3, 1]);
  });

  it('reads a block again when its read ahead failed', async () => {
    const { volume, reads } = loggedVolume(4, 2);
    const vb = new VolumeBytes(volume, 'test.0');
    await vb.bytes(0, 4);
    await vb.bytes(BLOCK_SIZE, 4);
    // Let the failed read ahead of block 2 settle first.
    await new Promise((r) => setTimeout(r, 40));
    expect((await vb.bytes(2 * BLOCK_SIZE, 4))[0]).toBe(2);
    expect(reads.filter((b) => b === 2)).toHaveLength(2);
  });

  it('reports a failed read ahead the replay is waiting for', async () => {
    const { volume } = loggedVolume(4, 2);
    const vb = new VolumeBytes(volume, 'test.0');
    await vb.bytes(0, 4);
    await vb.bytes(BLOCK_SIZE, 4);
    await expect(vb.bytes(2 * BLOCK_SIZE, 4)).rejects.toThrow('block 2 unreadable');
  });
});
