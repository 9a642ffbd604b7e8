// The drop classifier on real QA archives: archives grouped by the host their labels name (one
// source per host), every compression suffix libpcp knows accepted and `.zst` refused (as
// io/compression.ts says), view files told apart by their first bytes, derived-metric
// configurations by their `.conf` name, strays with a reason.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QA_ARCHIVES } from '../../test/oracle';
import { classifyDrop } from './drop-classify';
import type { DroppedFile } from './engine-types';

const qa = (name: string, as = name): DroppedFile => ({ path: as, file: new Blob([readFileSync(`${QA_ARCHIVES}/${name}`)]) });
const text = (path: string, body: string): DroppedFile => ({ path, file: new Blob([body]) });

describe('classifyDrop', () => {
  it('groups archives of one host into one set and keeps other hosts apart', async () => {
    const files = [
      ...['meta', 'index', '0'].map((s) => qa(`20180415.09.16.${s}`, `logs/20180415.09.16.${s}`)),
      ...['meta', 'index', '0'].map((s) => qa(`20180127.08.40.${s}`, `logs/20180127.08.40.${s}`)),
      ...['meta', 'index', '0'].map((s) => qa(`20180102.${s}`)),
    ];
    const c = await classifyDrop(files);
    expect(c.archives).toEqual([
      { hostname: 'brolley-t530', bases: ['logs/20180127.08.40', 'logs/20180415.09.16'], files: [0, 1, 2, 3, 4, 5] },
      { hostname: 'bozo', bases: ['20180102'], files: [6, 7, 8] },
    ]);
    expect(c.views).toEqual([]);
    expect(c.strays).toEqual([]);
  });

  it('takes the compression suffixes libpcp knows and no others, and sorts out views and strays', async () => {
    const files = [
      qa('20180416.10.00.meta.xz'), qa('20180416.10.00.index'), qa('20180416.10.00.0.xz'),
      text('a.0.bz', 'x'), text('a.0.zst', 'x'),
      text('Disk', '#kmchart\nversion 1\n'), text('old.view', '#pmchart\nVersion 2.0 host dynamic\n'),
      text('README', 'hello'), text('derived/mine.conf', 'my.x = disk.all.read\n'),
    ];
    const c = await classifyDrop(files);
    expect(c.archives.map((a) => [a.hostname, a.bases])).toEqual([['brolley-t530', ['20180416.10.00']]]);
    expect(c.views).toEqual([5, 6]);
    expect(c.derivedConfigs).toEqual([8]);
    // a.0.bz is an archive file (libpcp's .bz) without its .meta; so is a.0.zst (the core reads
    // .zst as PCP 6.3.2+ does, docs/deviations.md).
    expect(c.strays.map((s) => [s.index, s.error.code])).toEqual([[3, 'PM_ERR_LOGFILE'], [4, 'PM_ERR_LOGFILE'], [7, 'PM_ERR_NOTARCHIVE']]);
    expect(c.strays[0]?.error.message).toContain('a.meta');
    expect(c.strays[2]?.error.context).toBe('README');
  });

  it('leaves an archive whose label is unreadable as a source of its own, for the open to report', async () => {
    const files = [qa('20180102.meta'), qa('20180102.index'), qa('20180102.0'), text('broken.meta', 'not a label'), text('broken.0', 'x')];
    const c = await classifyDrop(files);
    expect(c.archives).toEqual([
      { hostname: 'bozo', bases: ['20180102'], files: [0, 1, 2] },
      { hostname: '', bases: ['broken'], files: [3, 4] },
    ]);
  });
});
