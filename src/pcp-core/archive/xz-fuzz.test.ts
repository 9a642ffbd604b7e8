// Fuzzing .xz archives: damaged containers (bit flips, cuts, extreme values in the stream
// header, block headers, index and footer, streams glued together or padded) of the recorded
// fixtures' volumes, recompressed into one block or many; and damaged content recompressed
// (a valid container around a damaged volume), opened as an archive and dumped. Whatever the
// damage: bytes or a PmError naming the file, never another exception, never a hang.
// Recompressing uses the system's xz (xz-utils); the pool is made once per run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeoutMs } from '../../../test/fuzz-budget';
import { PmError } from '../errors';
import { memoryFileSet } from '../io/listed-file-set';
import { openStored } from '../io/open-stored';
import { sessionOf } from '../replay/testing/archive-set-records';
import { openArchiveSet } from './open-archive-set';

const RECORDED = join(import.meta.dirname, '../../../test/fixtures/recorded');

/** mulberry32, as the other fuzzers. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function xz(args: string[], input: Uint8Array): Uint8Array {
  const run = spawnSync('xz', args, { input, maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`xz ${args.join(' ')}: ${run.stderr.toString() || run.error?.message}`);
  return new Uint8Array(run.stdout);
}

const EXTREMES = [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff];

/** Container damage: 1–3 of flips, cuts, extreme bytes near the ends, glued or padded streams. */
function damageContainer(b: Uint8Array, r: () => number): { bytes: Uint8Array; what: string[] } {
  let bytes = b.slice();
  const what: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let m = 0; m < n; m++) {
    const k = r();
    if (k < 0.35 && bytes.length > 0) {
      const at = Math.floor(r() * bytes.length);
      bytes[at] ^= 1 << Math.floor(r() * 8);
      what.push(`flip @${at}`);
    } else if (k < 0.5) {
      const len = Math.floor(r() * bytes.length);
      bytes = bytes.slice(0, len);
      what.push(`cut to ${len}`);
    } else if (k < 0.85 && bytes.length > 0) {
      // The stream header (12 bytes), the first block header, or the index and footer at the end.
      const region = r();
      const at = region < 0.3 ? Math.floor(r() * Math.min(12, bytes.length)) : region < 0.5 ? Math.min(bytes.length - 1, 12 + Math.floor(r() * 16)) : Math.max(0, bytes.length - 1 - Math.floor(r() * 48));
      bytes[at] = EXTREMES[Math.floor(r() * EXTREMES.length)];
      what.push(`byte @${at}`);
    } else if (k < 0.93) {
      const glued = new Uint8Array(bytes.length * 2);
      glued.set(bytes);
      glued.set(bytes, bytes.length);
      bytes = glued;
      what.push('two streams');
    } else {
      const padded = new Uint8Array(bytes.length + 4 * (1 + Math.floor(r() * 3)) + (r() < 0.3 ? 1 : 0));
      padded.set(bytes);
      bytes = padded;
      what.push('stream padding');
    }
  }
  return { bytes, what };
}

/** Reads the whole decompressed file and a few ranges; only PmError may escape. */
async function readAll(bytes: Uint8Array, r: () => number): Promise<'read' | 'refused'> {
  const fs = memoryFileSet('fuzz', [['v.0.xz', bytes]]);
  let src;
  try {
    src = await openStored(fs, 'v.0.xz');
  } catch (e) {
    if (e instanceof PmError) return 'refused';
    throw e;
  }
  try {
    for (let i = 0; i < 3; i++) {
      const at = Math.floor(r() * (src.size + 16));
      await src.read(at, Math.floor(r() * 4096));
    }
    const all = await src.read(0, src.size);
    expect(all.length).toBeLessThanOrEqual(src.size);
    return 'read';
  } catch (e) {
    if (e instanceof PmError) return 'refused';
    throw e;
  } finally {
    await src.close();
  }
}

/** Opens an archive whose volume 0 is `vol0xz` and reads every record; only PmError escapes. */
async function dumpArchive(meta: Uint8Array, index: Uint8Array, vol0xz: Uint8Array): Promise<'read' | 'refused'> {
  const fs = memoryFileSet('fuzz', [
    ['a.meta', meta],
    ['a.index', index],
    ['a.0.xz', vol0xz],
  ]);
  let set;
  try {
    set = await openArchiveSet(fs, 'a');
  } catch (e) {
    if (e instanceof PmError) return 'refused';
    throw e;
  }
  try {
    const session = await sessionOf(set);
    for (;;) await session.fetchArchive();
  } catch (e) {
    if (!(e instanceof PmError)) throw e;
  } finally {
    await set.close();
  }
  return 'read';
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

const bases = ['hotproc-v2', 'hotproc-v3'].map((b) => ({
  name: b,
  meta: new Uint8Array(readFileSync(join(RECORDED, `${b}.meta`))),
  index: new Uint8Array(readFileSync(join(RECORDED, `${b}.index`))),
  xz: new Uint8Array(readFileSync(join(RECORDED, `${b}.0.xz`))),
}));
const plain = bases.map((b) => xz(['-dc'], b.xz));
// The same volumes in many small blocks (an index with many entries), and with a SHA-256 check.
const containers = [...bases.map((b) => b.xz), ...plain.map((p) => xz(['-c', '--block-size=2048'], p)), ...plain.map((p) => xz(['-c', '-C', 'sha256'], p))];

describe('xz fuzzing', () => {
  it('damaged .xz containers give bytes or a PmError', { timeout: fuzzTimeoutMs(100) }, async () => {
    const budget = fuzzBudget('xz containers', 800);
    const r = rng(0x00c0ffee);
    const seen = { read: 0, refused: 0 };
    let done = 0;
    for (; budget.more(done); done++) {
      const { bytes, what } = damageContainer(containers[done % containers.length], r);
      const label = `input ${done} (container ${done % containers.length}: ${what.join(', ')})`;
      try {
        seen[await withTimeout(readAll(bytes, r), 10_000, label)]++;
      } catch (e) {
        throw new Error(`${label}: ${e instanceof Error ? e.stack : String(e)}`, { cause: e });
      }
    }
    budget.report(done, `${seen.refused} refused`);
    expect(seen.read).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(done / 10);
  });

  it('damaged volumes recompressed open and read as archives, or fail with a PmError', { timeout: fuzzTimeoutMs(100) }, async () => {
    const budget = fuzzBudget('xz recompressed content', 80);
    const r = rng(0x5eedc0de);
    // A pool of damaged volumes, recompressed once each (xz costs a process per volume).
    const pool: Array<{ base: (typeof bases)[number]; xz: Uint8Array; what: string }> = [];
    for (let i = 0; i < 16; i++) {
      const k = i % bases.length;
      const vol = plain[k].slice();
      const v = new DataView(vol.buffer);
      const what: string[] = [];
      for (let m = 0; m < 1 + (i % 3); m++) {
        const at = Math.floor(r() * vol.length);
        if (r() < 0.6) {
          vol[at] ^= 1 << Math.floor(r() * 8);
          what.push(`flip @${at}`);
        } else {
          const word = at & ~3;
          if (word + 4 <= vol.length) v.setInt32(word, [0, -1, 8, 0x7fffffff][Math.floor(r() * 4)]);
          what.push(`word @${word}`);
        }
      }
      const cutTo = i % 5 === 4 ? Math.floor(r() * vol.length) : vol.length;
      pool.push({ base: bases[k], xz: xz(['-c', '-1', ...(i % 2 ? ['--block-size=1024'] : [])], vol.subarray(0, cutTo)), what: `${what.join(', ')}${cutTo < vol.length ? `, cut to ${cutTo}` : ''}` });
    }
    const seen = { read: 0, refused: 0 };
    let done = 0;
    for (; budget.more(done); done++) {
      const p = pool[done % pool.length];
      // Every other time the container is damaged as well.
      const bytes = done % 2 ? damageContainer(p.xz, r).bytes : p.xz;
      const label = `input ${done} (${p.base.name}: ${p.what})`;
      try {
        seen[await withTimeout(dumpArchive(p.base.meta, p.base.index, bytes), 10_000, label)]++;
      } catch (e) {
        throw new Error(`${label}: ${e instanceof Error ? e.stack : String(e)}`, { cause: e });
      }
    }
    budget.report(done, `${seen.refused} refused at open`);
    expect(seen.read).toBeGreaterThan(0);
  });
});
