// Stepped replay's read-ahead (archive-replay-source.ts): a re-seek per sample reads the
// records around its index entry, not the volume's blocks, and what it reads ahead changes no
// value. The values of stepped grids are checked against libpcp in
// workers/series-fetch-stepped.conformance.test.ts; here the same grid is fetched with and
// without the read-ahead over the QA archive 20180102 (7 MB, an index entry every ~15 KB).
import { describe, expect, it } from 'vitest';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_ARCHIVES, runTool, scratchDir } from '../../../test/oracle';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ByteSource } from '../io/byte-source';
import { openStored } from '../io/open-stored';
import { isPmError } from '../errors';
import type { PmId, Result } from '../types';
import { openArchiveContext, type ArchiveContext } from './archive-context';
import type { Context } from './context';
import { fetchInterpGrid, type InterpGrid } from './interp-grid';

const NAMES = ['kernel.all.load', 'disk.all.read', 'mem.util.free', 'network.interface.in.bytes'];

interface Reads {
  bytes: number;
  count: number;
}

/** The archive opened with its data volume's reads counted; `failFirst` fails the first data read after opening (and finding the end). */
async function open(failFirst = false, dir = QA_ARCHIVES, base = '20180102'): Promise<{ ctx: ArchiveContext; reads: Reads }> {
  let armed = false;
  const fs = new DirFileSet(dir);
  const reads: Reads = { bytes: 0, count: 0 };
  const counted = (src: ByteSource): ByteSource => ({
    name: src.name,
    size: src.size,
    read: (offset, length) => {
      if (armed && failFirst) {
        failFirst = false;
        return Promise.reject(new Error(`${src.name}: refused once`));
      }
      reads.bytes += Math.min(length, src.size - offset);
      reads.count++;
      return src.read(offset, length);
    },
    close: () => src.close(),
  });
  const ctx = await openArchiveContext(fs, base, { open: async (path) => (path.endsWith('.0') ? counted(await openStored(fs, path)) : openStored(fs, path)) });
  await ctx.archiveEnd();
  armed = true;
  return { ctx, reads };
}

type Opened = Awaited<ReturnType<typeof open>>;

/**
 * Ten minutes of the QA archive 20180416.10.00 cut by pmlogextract (which keeps its layout),
 * opened twice (`plain`, `withAhead`) for `body`; both closed and the cut removed after.
 */
async function onTenMinutes(body: (plain: Opened, withAhead: Opened) => Promise<void>): Promise<void> {
  const dir = scratchDir('pmdash-span-');
  try {
    const cut = await runTool('pmlogextract', ['-S', '@14:30:00', '-T', '@14:40:00', `${QA_ARCHIVES}/20180416.10.00`, join(dir, 'cut')]);
    expect(cut.status, cut.stderr).toBe(0);
    const plain = await open(false, dir, 'cut');
    const withAhead = await open(false, dir, 'cut');
    try {
      await body(plain, withAhead);
    } finally {
      await plain.ctx.close();
      await withAhead.ctx.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The whole archive on `count` samples, stepped; `ahead` false hides Context.prefetch. */
async function stepped(ctx: ArchiveContext, count: number, ahead: boolean): Promise<(Result | number)[]> {
  const pmids = (await ctx.lookupNames(NAMES)).map((p) => p as PmId);
  const start = ctx.source.kind === 'archive' ? ctx.source.start : { sec: 0, nsec: 0 };
  const end = await ctx.archiveEnd();
  const spanNs = BigInt(end.sec - start.sec) * 1_000_000_000n + BigInt(end.nsec - start.nsec);
  const grid: InterpGrid = { origin: start, deltaNs: spanNs / BigInt(count - 1), count };
  const target: Context = ahead ? ctx : Object.assign(Object.create(ctx) as ArchiveContext, { prefetch: undefined });
  const out: (Result | number)[] = [];
  await fetchInterpGrid(target, pmids, grid, 'stepped', (_k, r) => {
    out.push(isPmError(r) ? r.code : r);
    return true;
  });
  return out;
}

/** NAMES on `grid`, stepped; `ahead` false hides Context.prefetch; `each` sees every sample's index. */
async function grided(ctx: ArchiveContext, grid: InterpGrid, ahead: boolean, each: (k: number) => void = () => undefined): Promise<(Result | number)[]> {
  const pmids = (await ctx.lookupNames(NAMES)).map((p) => p as PmId);
  const target: Context = ahead ? ctx : Object.assign(Object.create(ctx) as ArchiveContext, { prefetch: undefined });
  const out: (Result | number)[] = [];
  await fetchInterpGrid(target, pmids, grid, 'stepped', (k, r) => {
    out.push(isPmError(r) ? r.code : r);
    each(k);
    return true;
  });
  return out;
}

describe('stepped replay read-ahead', () => {
  it('reads the records around each re-seek, a fraction of the blocks, and changes no value', async () => {
    const plain = await open();
    const withAhead = await open();
    try {
      // Samples 2.3 MB apart: spans too far apart to be read as one run.
      const opened = [plain.reads.bytes, withAhead.reads.bytes];
      const expected = await stepped(plain.ctx, 4, false);
      const got = await stepped(withAhead.ctx, 4, true);
      const blocks = plain.reads.bytes - (opened[0] ?? 0);
      const spans = withAhead.reads.bytes - (opened[1] ?? 0);
      expect(got).toEqual(expected);
      expect(expected.filter((r) => typeof r !== 'number').length).toBe(4);
      // Without read-ahead each re-seek reads the 1 MiB blocks around it; with it, the few
      // index entries' worth of records there (~15 KB apart in this archive).
      expect(blocks).toBeGreaterThanOrEqual(3 * 1024 * 1024);
      expect(spans).toBeLessThan(blocks / 4);
    } finally {
      await plain.ctx.close();
      await withAhead.ctx.close();
    }
  });

  it('a re-seek finds every record it decodes in its one span: one read per sample, no more', async () => {
    const plain = await open();
    const withAhead = await open();
    try {
      const before = withAhead.reads.count;
      expect(await stepped(withAhead.ctx, 12, true)).toEqual(await stepped(plain.ctx, 12, false));
      // 12 samples ~0.6 MB apart: 12 spans, and no read of the replay's own for a record
      // outside them.
      expect(withAhead.reads.count - before).toBe(12);
    } finally {
      await plain.ctx.close();
      await withAhead.ctx.close();
    }
  });

  it('where pmlogger writes each interval in one burst, a re-seek near its entry reads no more', async () => {
    // In the ten minutes of 20180416.10.00: an index entry every 10 s at a 180 KB record, a
    // 15 KB record just after it. A re-seek nearer the entry before t reads forwards over the
    // record at the entry after t; one nearer the entry after t reads back to the burst
    // before t for the metrics' lower bounds.
    await onTenMinutes(async (plain, withAhead) => {
      const [count0, bytes0] = [withAhead.reads.count, withAhead.reads.bytes];
      const blocks0 = plain.reads.bytes;
      const samples = 15;
      expect(await stepped(withAhead.ctx, samples, true)).toEqual(await stepped(plain.ctx, samples, false));
      // One read per sample (samples ~0.8 MB apart), none of the replay's own for a
      // record outside it; about two intervals (400 KB) each, a third of the blocks.
      expect(withAhead.reads.count - count0).toBe(samples);
      expect(withAhead.reads.bytes - bytes0).toBeLessThan(samples * 450 * 1024);
      expect(withAhead.reads.bytes - bytes0).toBeLessThan((plain.reads.bytes - blocks0) / 2);
    });
  });

  it('on a grid just before each burst, the burst before t is read only as far back as the re-seeks read', async () => {
    // The charts' grid (the archive's start plus k steps) falls a few ms before each burst of
    // 20180416.10.00: the re-seek is to the entry after t, reads back the burst's 15 KB last
    // record (these metrics' lower bounds) and forwards the 180 KB one at that entry. Once
    // one such re-seek has shown that, later spans leave out the 180 KB record before it.
    // (hinv.ncpu, in the Overview, is logged in the 180 KB records only: its lower bound is
    // there, so the Overview's re-seeks read back over it and their spans keep it.)
    await onTenMinutes(async (plain, withAhead) => {
      const [count0, bytes0] = [withAhead.reads.count, withAhead.reads.bytes];
      const count = 19;
      const start = withAhead.ctx.source.kind === 'archive' ? withAhead.ctx.source.start : { sec: 0, nsec: 0 };
      // 50 ms before the burst after the first, then every 30 s (three bursts: spans two
      // bursts apart, too far to be read as one run).
      const origin = { sec: start.sec + 9, nsec: start.nsec + 950_000_000 };
      if (origin.nsec >= 1e9) [origin.sec, origin.nsec] = [origin.sec + 1, origin.nsec - 1e9];
      const grid: InterpGrid = { origin, deltaNs: 30_000_000_000n, count };
      // Samples 0–8 are read ahead before the first re-seek (two bursts each, run together
      // here); those after, once it has read, one burst and a little each (~230 KB).
      let afterFirst = NaN;
      const got = await grided(withAhead.ctx, grid, true, (k) => {
        if (k === 0) afterFirst = withAhead.reads.bytes;
      });
      expect(got).toEqual(await grided(plain.ctx, grid, false));
      expect(got.filter((r) => typeof r !== 'number').length).toBe(count);
      // One read per sample at most, none of the replay's own for a record outside them.
      expect(withAhead.reads.count - count0).toBeLessThanOrEqual(count);
      expect(withAhead.reads.bytes - afterFirst).toBeLessThan((count - 9) * 250 * 1024);
      expect(withAhead.reads.bytes - bytes0).toBeLessThan(count * 400 * 1024);
    });
  });

  it('reads spans that nearly touch as one forward run: the same values', async () => {
    const plain = await open();
    const withAhead = await open();
    try {
      expect(await stepped(withAhead.ctx, 300, true)).toEqual(await stepped(plain.ctx, 300, false));
    } finally {
      await plain.ctx.close();
      await withAhead.ctx.close();
    }
  });

  it('a span whose read failed: the replay reads those bytes itself, values unchanged', async () => {
    const plain = await open();
    const failing = await open(true);
    try {
      expect(await stepped(failing.ctx, 24, true)).toEqual(await stepped(plain.ctx, 24, false));
    } finally {
      await plain.ctx.close();
      await failing.ctx.close();
    }
  });

  it('releaseMemory drops what was read ahead: the next pass reads again, same values', async () => {
    const { ctx, reads } = await open();
    try {
      const first = await stepped(ctx, 24, true);
      ctx.releaseMemory();
      const before = reads.count;
      expect(await stepped(ctx, 24, true)).toEqual(first);
      expect(reads.count).toBeGreaterThan(before);
    } finally {
      await ctx.close();
    }
  });
});
