// Opening is lazy (design.md "Archives are read lazily"): label, metadata and index are read;
// of the data volumes, only the first one's label — whatever the archive's size.
import { sessionOf } from '../replay/testing/archive-set-records';
import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../io/byte-source';
import { memoryFileSet } from '../io/listed-file-set';
import { openArchiveSet } from './open-archive-set';
import { PM_TYPE_U64, pmid } from '../types';
import { archiveFiles, buildArchive, payload, type RecordSpec } from './testing/archive-builder';

/** Wraps a source, adding the bytes each read returns to `counts[name]`. */
function counting(source: ByteSource, counts: Map<string, number>): ByteSource {
  return {
    name: source.name,
    size: source.size,
    read: async (offset, length) => {
      const bytes = await source.read(offset, length);
      counts.set(source.name, (counts.get(source.name) ?? 0) + bytes.length);
      return bytes;
    },
    close: () => source.close(),
  };
}

const ID = pmid(60, 0, 1);
const start = { sec: 1_700_000_000, nsec: 0 };

/** Three volumes of about 1.8 MB each. */
function bigArchive() {
  const volume = (v: number): RecordSpec[] =>
    Array.from({ length: 1500 }, (_, i) => ({
      time: { sec: start.sec + v * 1500 + i, nsec: 0 },
      sets: [{ pmid: ID, values: Array.from({ length: 60 }, (_, j) => ({ inst: j, vtype: PM_TYPE_U64, payload: payload.u64(BigInt(i * j)) })) }],
    }));
  return buildArchive({
    version: 3,
    start,
    meta: [{ kind: 'desc', pmid: ID, type: PM_TYPE_U64, sem: 1, indom: 0x0f000001, names: ['big.counter'] }, { kind: 'indom', time: start, indom: 0x0f000001, instances: Array.from({ length: 60 }, (_, j) => [j, `i${j}`] as const) }],
    volumes: new Map([0, 1, 2].map((v) => [v, volume(v)])),
  });
}

describe('lazy reading', () => {
  it('opens and answers metadata questions without reading data volumes beyond a label', async () => {
    const files = bigArchive();
    expect(files.get('1')?.length).toBeGreaterThan(1_500_000);
    const fs = memoryFileSet('big', archiveFiles('big', files));
    const counts = new Map<string, number>();
    const set = await openArchiveSet(fs, 'big', { open: async (path) => counting(await fs.open(path), counts) });
    const meta = set.metadata;
    expect(meta.pmns.lookup('big.counter')).toBe(ID);
    expect(meta.desc(ID)?.type).toBe(PM_TYPE_U64);
    expect(meta.indomAt(0x0f000001 as never, start)?.instances.length).toBe(60);
    expect(meta.indomUnion(0x0f000001 as never)?.instances.length).toBe(60);
    expect(counts.get('big.0')).toBe(808);
    expect(counts.has('big.1')).toBe(false);
    expect(counts.has('big.2')).toBe(false);
    // The metadata: its label, then the whole file.
    expect(counts.get('big.meta')).toBe(808 + (files.get('meta')?.length ?? 0));

    // Replay opens a volume beyond the first only when it reaches it (a label check of an
    // xz volume decompresses it).
    const session = await sessionOf(set);
    expect(counts.has('big.1')).toBe(false);
    expect(counts.has('big.2')).toBe(false);

    // The end of the archive: the last volume's label and one block at its end.
    await session.archiveEnd();
    expect(counts.has('big.1')).toBe(false);
    expect(counts.get('big.2')).toBeLessThan(808 + (1 << 20) + 2000);

    // A positioned read touches one block of one volume.
    await session.setMode(2, { sec: start.sec + 1500 + 10, nsec: 0 });
    const rec = await session.fetchArchiveRecord();
    expect(rec.timestamp.sec).toBe(start.sec + 1510);
    expect(counts.get('big.1')).toBeGreaterThan(808);
    expect(counts.get('big.1')).toBeLessThanOrEqual(808 + (1 << 20) + 808);
  });
});
