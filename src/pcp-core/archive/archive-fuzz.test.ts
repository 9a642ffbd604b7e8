// Fuzzing the archive reader with mutated archives: the recorded pmlogger fixtures (V2 and V3,
// real bytes) and the synthetic demo archive (every value encoding, two volumes, marks), with
// bit flips, truncations, damaged length words (labels, .meta records, data records), damaged
// index entries, damaged value-block offsets and missing files. Whatever the damage, opening, dumping every record,
// pmGetArchiveEnd, metadata queries and positioned reads in both directions must end in
// results or a PmError — never another exception, never a hang. Deterministic (fixed seed);
// test/fuzz-budget.ts sets the count (`npm run fuzz`: a time budget instead).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryFileSet } from '../io/listed-file-set';
import { openStored } from '../io/open-stored';
import { PmError } from '../errors';
import type { PmId } from '../types';
import { openArchiveSet } from './open-archive-set';
import { decodeValueSets } from './data-record';
import { ArchiveContext } from '../context/archive-context';
import type { LogRecord } from '../replay/log-record';
import type { ArchiveSet } from './archive-set';
import { DumpJsonFormatter } from '../../cli/dump-json';
import { TextFormatter } from '../../cli/dump';
import { buildArchive } from './testing/archive-builder';
import { fuzzBudget, fuzzTimeoutMs } from '../../../test/fuzz-budget';
import { demoSpec } from './testing/demo-archive';
import { pointerWords } from './testing/pointer-words';

const SEED = 0x5eed1234;
const RECORDED = join(import.meta.dirname, '../../../test/fixtures/recorded');

/** mulberry32: small, fast, deterministic. */
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

type Files = Map<string, Uint8Array>;

/** The uncompressed files of a recorded fixture, keyed by suffix ("meta", "index", "0"). */
async function recorded(base: string): Promise<Files> {
  const fs = memoryFileSet('rec', ['meta', 'index', '0.xz'].map((s) => [`${base}.${s}`, new Uint8Array(readFileSync(join(RECORDED, `${base}.${s}`)))] as [string, Uint8Array]));
  const files: Files = new Map();
  for (const s of ['meta', 'index', '0.xz']) {
    const src = await openStored(fs, `${base}.${s}`);
    files.set(s.replace('.xz', ''), await src.read(0, src.size));
    await src.close();
  }
  return files;
}

/** Offsets of framed records (length words) in a .meta or data volume image. */
function recordStarts(bytes: Uint8Array, labelSize: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [0];
  for (let p = labelSize; p + 8 <= bytes.length; ) {
    out.push(p);
    const len = view.getInt32(p);
    if (len < 8) break;
    p += len;
  }
  return out;
}

function mutate(files: Files, r: () => number): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const done: string[] = [];
  const count = 1 + Math.floor(r() * 3);
  for (let m = 0; m < count; m++) {
    const key = pick([...files.keys()]);
    const bytes = files.get(key) as Uint8Array;
    const labelSize = bytes.length > 4 && new DataView(bytes.buffer, bytes.byteOffset).getUint32(0) === 808 ? 808 : 132;
    const kind = r();
    if (kind < 0.3 && bytes.length > 0) {
      const at = Math.floor(r() * bytes.length);
      bytes[at] = (bytes[at]) ^ (1 << Math.floor(r() * 8));
      done.push(`flip ${key}@${at}`);
    } else if (kind < 0.45) {
      const len = Math.floor(r() * bytes.length);
      files.set(key, bytes.slice(0, len));
      done.push(`truncate ${key} to ${len}`);
    } else if (kind < 0.8 && key !== 'index') {
      const starts = recordStarts(bytes, labelSize);
      const at = pick(starts);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (at + 4 > bytes.length) continue;
      const len = view.getInt32(at);
      const trailer = r() < 0.5 && at + len - 4 >= 0 && at + len <= bytes.length ? at + len - 4 : at;
      const value = pick([0, 1, 4, 7, 8, 12, -1, 0x7fffffff, len - 4, len + 4, len + 8, Math.floor(r() * 0xffffffff)]);
      view.setUint32(trailer, value >>> 0);
      done.push(`length ${key}@${trailer}=${value}`);
    } else if (kind < 0.92 && key === 'index' && bytes.length > labelSize) {
      const entry = labelSize + Math.floor(r() * Math.max(1, (bytes.length - labelSize) / 4)) * 4;
      if (entry + 4 <= bytes.length) {
        new DataView(bytes.buffer, bytes.byteOffset).setUint32(entry, pick([0, 1, 131, 132, 807, 808, 0xffffffff, Math.floor(r() * 0xffffffff)]));
        done.push(`index word @${entry}`);
      }
    } else if (kind < 0.97 && /^\d+$/.test(key)) {
      // A value-block offset set to another value's block, moved by a few words, or flipped
      // (libpcp's verdicts on this class: value-sets.conformance.test.ts).
      const ps = pointerWords(bytes);
      if (ps.length === 0) continue;
      const p = pick(ps);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const word = view.getInt32(p.wordAt);
      const same = ps.filter((q) => q.record === p.record);
      const k = r();
      const value = k < 0.5 ? view.getInt32(pick(same).wordAt) : k < 0.8 ? word + Math.floor(r() * 9) - 4 : word ^ (1 << Math.floor(r() * 32));
      view.setInt32(p.wordAt, value);
      done.push(`pointer ${key}@${p.wordAt}=${value}`);
    } else if (key !== 'meta' || r() < 0.2) {
      files.delete(key);
      done.push(`delete ${key}`);
    }
  }
  return done;
}

/** Everything a client might do with an archive; only PmError may escape. */
async function exercise(set: ArchiveSet, r: () => number): Promise<void> {
  const expectPm = (e: unknown): void => {
    if (!(e instanceof PmError)) throw e;
  };
  // Every record, formatted both ways: from decoded values and straight from the bytes.
  const format = new DumpJsonFormatter((p) => set.metadata.desc(p)?.type);
  const text = new TextFormatter(set);
  let context: ArchiveContext;
  try {
    context = await ArchiveContext.fromSet(set);
  } catch (e) {
    expectPm(e);
    await set.close();
    return;
  }
  const session = context.session;
  const typeOf = (p: PmId): number | undefined => set.metadata.desc(p)?.type;
  for (;;) {
    let raw: LogRecord;
    try {
      raw = await session.fetchArchiveRecord();
    } catch (e) {
      expectPm(e);
      break;
    }
    text.format(raw);
    if (raw.numpmid > 0) expect(format.formatRaw(raw)).toBe(format.format({ timestamp: raw.timestamp, sets: decodeValueSets(raw.buf, raw.view, raw, typeOf) }));
  }
  await session.archiveEnd().catch(expectPm);
  const meta = set.metadata;
  for (const d of meta.descs()) {
    meta.pmns.nameAll(d.pmid);
    for (const kind of ['oneline', 'help'] as const) {
      try {
        meta.text({ pmid: d.pmid }, kind);
      } catch (e) {
        expectPm(e);
      }
    }
  }
  meta.pmns.traverse('');
  for (const id of meta.indomIds()) {
    meta.indomAt(id, set.start);
    meta.indomUnion(id);
    meta.instanceLifetimes(id);
    meta.labelSets(32, id, set.start);
  }
  for (const mode of [2, 3] as const) {
    const t = { sec: set.start.sec + Math.floor(r() * 60) - 5, nsec: Math.floor(r() * 1e9) };
    try {
      await session.setMode(mode, t);
      for (let i = 0; i < 20; i++) await session.fetchArchiveRecord();
    } catch (e) {
      expectPm(e);
    }
  }
  await set.close();
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

describe('archive fuzzing', () => {
  it('survives mutated archives with only PmErrors', { timeout: fuzzTimeoutMs(200) }, async () => {
    const budget = fuzzBudget('archives', 300);
    const bases: Array<{ name: string; files: Files }> = [
      { name: 'hotproc-v2', files: await recorded('hotproc-v2') },
      { name: 'hotproc-v3', files: await recorded('hotproc-v3') },
      { name: 'demo-v2', files: buildArchive(demoSpec(2)) },
      { name: 'demo-v3', files: buildArchive(demoSpec(3)) },
    ];
    const r = rng(SEED);
    const outcomes = { opened: 0, refused: 0 };
    let i = 0;
    for (; budget.more(i); i++) {
      const base = bases[i % bases.length];
      const files: Files = new Map([...base.files].map(([k, v]) => [k, v.slice()]));
      const damage = mutate(files, r);
      const what = `iteration ${i} (${base.name}: ${damage.join(', ')})`;
      const fs = memoryFileSet('fuzz', [...files].map(([s, b]) => [`a.${s}`, b] as [string, Uint8Array]));
      await withTimeout(
        (async () => {
          let set: ArchiveSet;
          try {
            set = await openArchiveSet(fs, 'a');
          } catch (e) {
            if (!(e instanceof PmError)) throw new Error(`${what}: ${String(e)}`, { cause: e });
            outcomes.refused++;
            return;
          }
          outcomes.opened++;
          try {
            await exercise(set, r);
          } catch (e) {
            throw new Error(`${what}: ${e instanceof Error ? e.stack : String(e)}`, { cause: e });
          }
        })(),
        10_000,
        what,
      );
    }
    budget.report(i, `${outcomes.refused} refused at open`);
    // Both outcomes occur: the mutations are neither all fatal nor all harmless.
    expect(outcomes.opened).toBeGreaterThan(i / 10);
    expect(outcomes.refused).toBeGreaterThan(i / 10);
  });
});
