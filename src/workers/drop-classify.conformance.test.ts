// The drop classifier on real QA archives: archives grouped by the host their labels name (one
// source per host), every compression suffix libpcp knows accepted and `.zst` refused (as
// io/compression.ts says), view files told apart by their first bytes, derived-metric
// configurations by their `.conf` name, strays with a reason; and the .xz decodes a drop of one
// archive starts for its open.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { setXzStreamDecoder, type XzDecodeOptions } from '../pcp-core/io/xz-decoder';
import { QA_ARCHIVES } from '../../test/oracle';
import { classifyDrop } from './drop-classify';
import type { DroppedFile } from './engine-types';

const qa = (name: string, as = name): DroppedFile => ({ path: as, file: new Blob([readFileSync(`${QA_ARCHIVES}/${name}`)]) });
/** The uncompressed size `xz --robot --list` gives for a QA archive's one-block .xz file. */
const xzSize = (name: string): number => Number(execFileSync('xz', ['--robot', '--list', `${QA_ARCHIVES}/${name}`], { encoding: 'utf8' }).split('\n').find((l) => l.startsWith('file\t'))?.split('\t')[4]);
const text = (path: string, body: string): DroppedFile => ({ path, file: new Blob([body]) });

describe('classifyDrop', () => {
  afterEach(() => setXzStreamDecoder(undefined));

  it('starts the decodes a dropped .xz archive\'s open waits for, first volume first, with an off-thread decoder', async () => {
    const asked: Array<{ size: number; ahead: boolean; hold: boolean }> = [];
    let answered = (): void => undefined;
    const allAsked = new Promise<void>((resolve) => (answered = resolve));
    setXzStreamDecoder({
      decode: (_framed: Uint8Array, size: number, options?: XzDecodeOptions) => {
        asked.push({ size, ahead: options?.ahead === true, hold: options?.hold === true });
        if (asked.length === 3) answered();
        return Promise.resolve(new Uint8Array(size));
      },
    });
    const files = ['meta.xz', 'index', '0.xz', '1.xz', '2.xz', '3.xz'].map((s) => qa(`20180416.10.00.${s}`));
    const c = await classifyDrop(files);
    expect(c.archives.map((a) => a.bases)).toEqual([['20180416.10.00']]);
    await allAsked;
    // Volume 0 (as a decode ahead), volume 3 (the end), the .meta; each one block, whole.
    expect(asked).toEqual([
      { size: xzSize('20180416.10.00.0.xz'), ahead: true, hold: true },
      { size: xzSize('20180416.10.00.3.xz'), ahead: false, hold: true },
      { size: xzSize('20180416.10.00.meta.xz'), ahead: false, hold: true },
    ]);
  });

  it('starts no decode for a drop of several archives, nor without an off-thread decoder', async () => {
    const asked: number[] = [];
    const decoder = { decode: (_f: Uint8Array, size: number) => (asked.push(size), Promise.resolve(new Uint8Array(size))) };
    setXzStreamDecoder(decoder);
    await classifyDrop([
      ...['meta.xz', 'index', '0.xz'].map((s) => qa(`20180416.10.00.${s}`)),
      ...['meta', 'index', '0'].map((s) => qa(`20180102.${s}`)),
    ]);
    setXzStreamDecoder(undefined);
    await classifyDrop(['meta.xz', 'index', '0.xz'].map((s) => qa(`20180416.10.00.${s}`)));
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toEqual([]);
  });

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
