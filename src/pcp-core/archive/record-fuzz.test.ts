// Fuzzing single data records, fast enough for millions of inputs: records of the recorded
// pmlogger fixtures (V2, V3) and the demo archive (every value encoding), each damaged by bit
// flips, value-block offsets set to another value's block or moved, words set to extremes,
// and cut short (length words kept consistent, so the value-set checks are what is tested).
// The one record check (archive/data-record.ts, through the replay cursor's checkLogRecord)
// must only ever refuse with a reason, never throw, and every value of an accepted record
// must decode without an exception both ways: as dump decodes value sets (decodeValueSets)
// and as the replay engine decodes single values (decodeValue).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeoutMs } from '../../../test/fuzz-budget';
import { memoryFileSet } from '../io/listed-file-set';
import { openStored } from '../io/open-stored';
import { checkLogRecord } from '../replay/log-record';
import { decodeValue } from '../replay/value-decode';
import { logFormat, type LogVersion } from './log-format';
import { buildArchive } from './testing/archive-builder';
import { demoSpec } from './testing/demo-archive';
import { decodeValueSets } from './data-record';

const RECORDED = join(import.meta.dirname, '../../../test/fixtures/recorded');

interface Corpus {
  readonly version: LogVersion;
  readonly records: Uint8Array[];
}

/** The framed records of a data volume image. */
function records(vol: Uint8Array): Uint8Array[] {
  const v = new DataView(vol.buffer, vol.byteOffset, vol.byteLength);
  const out: Uint8Array[] = [];
  for (let p = v.getUint32(0); p + 8 <= vol.length; ) {
    const len = v.getInt32(p);
    if (len < 8 || p + len > vol.length) break;
    out.push(vol.slice(p, p + len));
    p += len;
  }
  return out;
}

async function recordedVolume(base: string): Promise<Uint8Array> {
  const fs = memoryFileSet('rec', [[`${base}.0.xz`, new Uint8Array(readFileSync(join(RECORDED, `${base}.0.xz`)))]]);
  const src = await openStored(fs, `${base}.0.xz`);
  try {
    return await src.read(0, src.size);
  } finally {
    await src.close();
  }
}

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

const EXTREMES = [0, 1, 2, 3, 4, -1, 0x7fffffff, -0x80000000, 0xffffff, 0x1000000];

/** One to three kinds of damage; the length words are rewritten to the final length. */
function mutate(rec: Uint8Array, version: LogVersion, r: () => number): Uint8Array {
  let b = rec.slice();
  const body = logFormat(version).dataHeaderSize;
  const n = 1 + Math.floor(r() * 3);
  for (let m = 0; m < n; m++) {
    const v = new DataView(b.buffer);
    const kind = r();
    const words = (b.length - 4 - body) >> 2;
    if (kind < 0.3 || words <= 0) {
      const at = Math.floor(r() * b.length);
      b[at] ^= 1 << Math.floor(r() * 8);
    } else if (kind < 0.65) {
      // A word of the value sets or blocks set to another word of the record (a value-block
      // offset pointing at another block, a numval or valfmt copied from elsewhere) or moved.
      const at = body + 4 * Math.floor(r() * words);
      const other = body + 4 * Math.floor(r() * words);
      v.setInt32(at, r() < 0.6 ? v.getInt32(other) : v.getInt32(at) + Math.floor(r() * 9) - 4);
    } else if (kind < 0.85) {
      const at = body - 4 + 4 * Math.floor(r() * (words + 1));
      v.setInt32(at, EXTREMES[Math.floor(r() * EXTREMES.length)]);
    } else {
      const keep = body + 4 * Math.floor(r() * (words + 1));
      const cut = new Uint8Array(keep + 4);
      cut.set(b.subarray(0, keep));
      b = cut;
    }
  }
  const v = new DataView(b.buffer);
  v.setUint32(0, b.length);
  v.setUint32(b.length - 4, b.length);
  return b;
}

/** Descriptor types: every type in turn, so each value is decoded several ways. */
const TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 99];

describe('record fuzzing', () => {
  it('refuses damaged records with a reason and decodes every value of accepted ones', { timeout: fuzzTimeoutMs() }, async () => {
    const budget = fuzzBudget('records', 20_000);
    const corpora: Corpus[] = [
      { version: 2, records: records(await recordedVolume('hotproc-v2')) },
      { version: 3, records: records(await recordedVolume('hotproc-v3')) },
      { version: 2, records: records(buildArchive(demoSpec(2)).get('0') as Uint8Array) },
      { version: 3, records: records(buildArchive(demoSpec(3)).get('0') as Uint8Array) },
    ];
    for (const c of corpora) expect(c.records.length).toBeGreaterThan(1);
    const r = rng(0x7ec0d);
    let done = 0;
    let refused = 0;
    for (; budget.more(done); done++) {
      const c = corpora[done % corpora.length];
      const rec = mutate(c.records[Math.floor(r() * c.records.length)], c.version, r);
      const type = TYPES[done % TYPES.length];
      let replayed: ReturnType<typeof checkLogRecord>;
      try {
        replayed = checkLogRecord(rec, c.version, { sec: 0, nsec: 0 });
      } catch (e) {
        throw new Error(`input ${done}: ${e instanceof Error ? e.stack : String(e)}`, { cause: e });
      }
      if (typeof replayed === 'string') {
        refused++;
        continue;
      }
      try {
        expect(decodeValueSets(rec, replayed.view, replayed, () => type).length).toBe(replayed.numpmid);
      } catch (e) {
        throw new Error(`input ${done} (type ${type}): ${e instanceof Error ? e.stack : String(e)}`, { cause: e });
      }
      // Every value of the accepted record, as the replay engine decodes it.
      for (let i = 0; i < replayed.numpmid; i++) {
        const at = replayed.vsetOffsets[i];
        const numval = replayed.view.getInt32(at + 4);
        const valfmt = numval > 0 ? replayed.view.getInt32(at + 8) : 0;
        for (let j = 0; j < numval; j++) {
          const pair = at + 12 + 8 * j;
          const off = valfmt === 0 ? pair + 4 : 4 * replayed.view.getInt32(pair + 4) - 8;
          try {
            decodeValue(replayed.view, off, valfmt, type);
          } catch (e) {
            throw new Error(`input ${done}: value ${i}/${j} as type ${type}: ${String(e)}`, { cause: e });
          }
        }
      }
    }
    budget.report(done, `${refused} refused`);
    // The damage is neither all fatal nor all harmless.
    expect(refused).toBeGreaterThan(done / 10);
    expect(refused).toBeLessThan(done);
  });
});
