// The volume size an extract expects (windowBytes, from the temporal indexes: its writer
// allocates for it at once) against pmlogextract's volume for the same window, on windows
// whose edges cut inside a volume and one across two volumes of a multi-volume archive (the
// extract's volume, held in the estimate's chunk and any after it, must hold what
// pmlogextract's does, byte for byte after the label), and a multi-archive directory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES, runTool, scratchDir } from '../../../test/oracle';
import { DirFileSet } from '../../node/dir-file-set';
import { openArchiveSet } from '../archive';
import { formatCtimeFraction, utcZone } from '../time';
import { timestampFromNs, timestampToNs } from '../time/timestamp';
import type { Timestamp } from '../types';
import { extractWindow, windowBytes } from './extract-window';
import { LABEL_SIZE_V3 } from './encode-label';

interface Case {
  readonly what: string;
  readonly archive: string;
  /** The window in UTC, as ISO times. */
  readonly from: string;
  readonly to: string;
}

// 20180416.10.00's volumes start at 14:01:25, 15:30:25, 16:58:35 and 18:26:25 UTC.
const CASES: readonly Case[] = [
  { what: 'edges inside one volume', archive: '20180416.10.00', from: '2018-04-16T14:40:00.250Z', to: '2018-04-16T14:50:00.750Z' },
  { what: 'across two volumes', archive: '20180416.10.00', from: '2018-04-16T15:20:00Z', to: '2018-04-16T15:40:00Z' },
  { what: 'edges inside the last volume', archive: '20180416.10.00', from: '2018-04-16T18:27:00Z', to: '2018-04-16T18:30:00Z' },
];

const stamp = (iso: string): Timestamp => timestampFromNs(BigInt(Date.parse(iso)) * 1_000_000n);

describe('the volume size an extract expects', () => {
  for (const c of CASES) {
    it(`${c.archive}, ${c.what}`, async () => {
      const set = await openArchiveSet(new DirFileSet(QA_ARCHIVES), c.archive);
      const from = stamp(c.from);
      const to = stamp(c.to);
      const image = await extractWindow(set, { from, to });
      const estimate = windowBytes(set, from, to);
      await set.close();

      const dir = scratchDir('pmdash-extract-estimate-');
      const theirs = join(dir, 'theirs');
      const zone = utcZone();
      // pmlogextract 6.0.3 adds one second to -T (extract-window.conformance.test.ts): ask for
      // one second less, plus the microsecond its double loses.
      const toUsec = timestampFromNs(((timestampToNs(to) + 999n) / 1000n) * 1000n + 1000n);
      const spec = (t: Timestamp): string => `@${formatCtimeFraction(zone, t, 9)}`;
      const run = await runTool('pmlogextract', ['-Z', 'UTC', '-V', '3', '-S', spec(from), '-T', spec({ sec: toUsec.sec - 1, nsec: toUsec.nsec }), join(QA_ARCHIVES, c.archive), theirs]);
      expect(run.status, run.stderr).toBe(0);
      const volume = readFileSync(`${theirs}.0`);

      // The records are the same bytes (V2 records given the V3 header, as pmlogextract does).
      const ours = image.volume;
      expect(ours.length).toBe(volume.length);
      let differ = -1;
      for (let i = LABEL_SIZE_V3; i < ours.length && differ < 0; i++) if (ours[i] !== volume[i]) differ = i;
      expect(differ).toBe(-1);
      // The estimate is within a tenth of the records' bytes.
      const records = volume.length - LABEL_SIZE_V3;
      expect(estimate).toBeDefined();
      expect(Math.abs((estimate ?? 0) - records)).toBeLessThanOrEqual(records / 10);
    });
  }

  it('multi, a directory of archives, the whole span', async () => {
    const set = await openArchiveSet(new DirFileSet(QA_ARCHIVES), 'multi');
    const last = set.archives[set.archives.length - 1];
    expect(last).toBeDefined();
    const from = set.start;
    const to = timestampFromNs(timestampToNs(set.start) + 10n ** 15n);
    const image = await extractWindow(set, { from, to });
    const estimate = windowBytes(set, from, to);
    await set.close();
    // (extract-window.conformance.test.ts checks this extract against pmlogextract's.) These
    // small archives hold most of their records after their last index entry, which the
    // estimate cannot see: it falls short (the writer then adds chunks), never far above.
    const records = image.volume.length - LABEL_SIZE_V3;
    expect(estimate).toBeDefined();
    expect(estimate).toBeLessThanOrEqual(records * 1.1);
    expect(image.volumeParts.reduce((n, p) => n + p.length, 0)).toBe(image.volume.length);
  });
});
