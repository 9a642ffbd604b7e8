// StreamVolumeBytes: a volume read forwards in fresh spans of its own (an export keeps the
// records as views): answers equal the volume's bytes wherever they fall (inside a span,
// across two, at the end), are never views of the source's own buffer, read ahead no further
// than the pass's end, and bytes the reader changed are read again as the volume holds them.
import { describe, expect, it } from 'vitest';
import type { ReplayVolume } from './replay-source';
import { changingBytes, ownsBytes, STREAM_SPAN_BYTES, StreamVolumeBytes } from './volume-bytes';

function volume(size: number): { vol: ReplayVolume; bytes: Uint8Array; reads: [number, number][] } {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 12)) & 0xff;
  const reads: [number, number][] = [];
  const vol: ReplayVolume = {
    size,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, Math.min(size, offset + length))),
    readFresh: (offset, length) => {
      reads.push([offset, length]);
      return Promise.resolve(bytes.slice(offset, Math.min(size, offset + length)));
    },
  };
  return { vol, bytes, reads };
}

function stream(v: ReplayVolume, end?: number): StreamVolumeBytes {
  return new StreamVolumeBytes(v, 'v.0', 'v.0', (o, l) => v.readFresh?.(o, l) ?? v.read(o, l), end);
}

describe('StreamVolumeBytes', () => {
  it('answers the volume’s bytes as views of spans read fresh, across spans and at the end', async () => {
    const size = 3 * STREAM_SPAN_BYTES + 1000;
    const { vol, bytes } = volume(size);
    const s = stream(vol);
    await s.bytes(132, 4);
    // Resident now: the synchronous reads answer too.
    expect(s.tryBytes(200, 8)).toEqual(bytes.subarray(200, 208));
    expect(s.tryWord(1000)).toBe(new DataView(bytes.buffer).getInt32(1000));
    for (const [offset, length] of [[132, 100_000], [STREAM_SPAN_BYTES - 50, 200], [2 * STREAM_SPAN_BYTES + 5, 4], [size - 10, 100]] as const) {
      const got = await s.bytes(offset, length);
      expect(got.length).toBe(Math.min(length, size - offset));
      expect(got).toEqual(bytes.subarray(offset, offset + got.length));
      expect(got.buffer).not.toBe(bytes.buffer);
      expect(ownsBytes(got)).toBe(true);
    }
    expect(ownsBytes(bytes)).toBe(false);
  });

  it('reads ahead from the span in use, no further than the pass’s end', async () => {
    const { vol, reads } = volume(12 * STREAM_SPAN_BYTES);
    const s = stream(vol, 2 * STREAM_SPAN_BYTES + 10);
    await s.bytes(0, 4);
    const last = reads.reduce((n, [o, l]) => Math.max(n, o + l), 0);
    expect(reads.length).toBeGreaterThan(1);
    expect(last).toBeLessThan(3 * STREAM_SPAN_BYTES);
  });

  it('reads bytes just before a span it holds up to that span only (a seek reading back)', async () => {
    const { vol, bytes, reads } = volume(3 * STREAM_SPAN_BYTES);
    const s = stream(vol, STREAM_SPAN_BYTES + 100_000);
    await s.bytes(100_000, 4);
    const got = await s.bytes(90_000, 20_000);
    expect(got).toEqual(bytes.subarray(90_000, 110_000));
    expect(reads.filter(([o]) => o === 90_000)).toEqual([[90_000, 10_000]]);
  });

  it('reads bytes its reader changed again from the volume', async () => {
    const { vol, bytes } = volume(STREAM_SPAN_BYTES);
    const s = stream(vol);
    const rec = await s.bytes(1000, 500);
    changingBytes(rec);
    rec.fill(0);
    expect(s.tryBytes(1200, 10)).toBeUndefined();
    const again = await s.bytes(1000, 500);
    expect(again).toEqual(bytes.subarray(1000, 1500));
    expect(ownsBytes(again)).toBe(true);
    // Bytes beside the changed ones are still answered from the span.
    expect(s.tryBytes(1500, 10)).toEqual(bytes.subarray(1500, 1510));
  });
});
