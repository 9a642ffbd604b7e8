// pmdash info, metrics and dump on a synthetic archive written to a scratch directory: output
// formats, the JSON line format's corner cases, exit statuses and one-line error reports.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpCommand } from './dump';
import { infoCommand } from './info';
import { metricsCommand } from './metrics';
import type { Command } from './command';
import { buildArchive } from '../pcp-core/archive/testing/archive-builder';
import { ByteWriter } from '../pcp-core/io/byte-writer';
import { demoSpec } from '../pcp-core/archive/testing/demo-archive';

let dir: string;
let base: string;

async function run(cmd: Command, ...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await cmd.run(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { status, out, err };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pmdash-cli-'));
  base = join(dir, 'demo');
  for (const [suffix, bytes] of buildArchive(demoSpec(3))) writeFileSync(`${base}.${suffix}`, bytes);
  // A damaged copy: the second volume's first record has a bad trailer.
  const bad = buildArchive(demoSpec(3));
  const vol1 = bad.get('1') as Uint8Array;
  new DataView(vol1.buffer).setUint32(808 + new DataView(vol1.buffer).getUint32(808) - 4, 99);
  for (const [suffix, bytes] of bad) writeFileSync(join(dir, `bad.${suffix}`), bytes);
  writeFileSync(join(dir, 'junk.meta'), new ByteWriter().u32(132).u32(0x12345602).finish());
  writeFileSync(join(dir, 'junk.0'), new Uint8Array(200));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pmdash dump', () => {
  it('writes JSON lines in the documented format', async () => {
    const { status, out, err } = await run(dumpCommand, '-a', base, '--json');
    expect(err).toBe('');
    expect(status).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(
      '{"kind":"record","time":"2023-11-14T22:13:20.000000000Z","sets":{' +
        '"60.0.1":{"numval":1,"values":{"-1":1000}},"60.0.2":{"numval":1,"values":{"-1":10.5}},' +
        '"60.0.3":{"numval":1,"values":{"-1":5}},"60.0.4":{"numval":1,"values":{"-1":"alpha"}},' +
        '"60.1.1":{"numval":2,"values":{"1":100,"2":-200}},"60.0.5":{"numval":1,"values":{"-1":7.4375}}}}',
    );
    expect(lines[1]).toBe(
      '{"kind":"record","time":"2023-11-14T22:13:30.000000000Z","sets":{' +
        '"60.0.1":{"numval":1,"values":{"-1":"18446744073709551615"}},"60.0.6":{"numval":1,"values":{"-1":"010203ff00"}},' +
        '"60.0.5":{"numval":1,"values":{"-1":0.10000000149011612}},"60.0.7":{"numval":-12350},"60.0.4":{"numval":0,"values":{}}}}',
    );
    expect(lines[2]).toBe('{"kind":"mark","time":"2023-11-14T22:13:40.001000000Z"}');
    expect(JSON.parse(lines[3])).toEqual({
      kind: 'record',
      time: '2023-11-14T22:13:50.000000500Z',
      sets: {
        '60.2.1': {
          numval: 1,
          values: {
            '-1': {
              nrecords: 2,
              records: [
                { time: '2023-11-14T22:13:49.123456000Z', flags: 1, params: [{ pmid: '60.3.1', type: 1, value: 42 }, { pmid: '60.3.2', type: 6, value: 'hello' }] },
                { time: '2023-11-14T22:13:49.123456000Z', flags: 2147483648, missed: 3 },
              ],
            },
          },
        },
        '60.2.2': expect.objectContaining({ numval: 1 }) as unknown,
        '60.1.1': { numval: 2, values: { '2': 7, '3': 8 } },
      },
    });
  });

  it('writes text with names, instance names and UTC times', async () => {
    const { status, out } = await run(dumpCommand, '-a', base);
    expect(status).toBe(0);
    expect(out).toContain('2023-11-14T22:13:20.000000000Z 6 metrics\n    60.0.1 (demo.ctr): value 1000\n');
    expect(out).toContain('    60.1.1 (demo.pi):\n        inst [1 or "A"] value 100\n        inst [2 or "B"] value -200\n');
    expect(out).toContain('    60.0.7 (demo.err): Error: Metric not supported by this version of monitored application\n');
    expect(out).toContain('2023-11-14T22:13:40.001000000Z <mark>\n');
    expect(out).toContain('        inst [3 or "C"] value 8\n');
    expect(out).toContain('    60.2.1 (demo.events.lo): value [2 event records]\n');
  });

  it('delivers every record before damage, then one line naming the file and the reason', async () => {
    const { status, out, err } = await run(dumpCommand, '-a', join(dir, 'bad'), '--json');
    expect(status).toBe(1);
    expect(out.trimEnd().split('\n')).toHaveLength(3);
    expect(err).toBe(`pmdash dump: ${join(dir, 'bad.1')}[data record] at offset 808: Corrupted record in a PCP archive log (length mismatch: header 244 != trailer 99)\n`);
  });

  it('refuses an archive libpcp refuses, in one line', async () => {
    const junk = await run(dumpCommand, '-a', join(dir, 'junk'));
    expect(junk.status).toBe(1);
    expect(junk.out).toBe('');
    expect(junk.err.split('\n')).toHaveLength(2);
    expect(junk.err).toContain('Illegal label record at start of a PCP archive log file');
    const missing = await run(dumpCommand, '-a', join(dir, 'nothing'));
    expect(missing.err).toContain('No such file or directory');
    await expect(run(dumpCommand)).rejects.toThrow('an archive is required');
  });
});

describe('pmdash info', () => {
  it('describes the archive', async () => {
    const { status, out } = await run(infoCommand, '-a', base);
    expect(status).toBe(0);
    expect(out).toContain('Format version:   3\n');
    expect(out).toContain('Timezone:         UTC (:Etc/UTC)\n');
    expect(out).toContain('End:              2023-11-14T22:14:00.000000000Z\n');
    expect(out).toContain('Volumes:          0 1\n');
    expect(out).toContain('Records:          5 (1 <mark>)\n');
    const json = JSON.parse((await run(infoCommand, '-a', base, '--json')).out) as Record<string, unknown>;
    expect(json).toMatchObject({ version: 3, host: 'testhost', metrics: 10, indoms: 1, records: 5, marks: 1, end: '2023-11-14T22:14:00.000000000Z' });
  });
});

describe('pmdash metrics', () => {
  it('lists names in PMNS order, with descriptors and help as pminfo prints them', async () => {
    const names = await run(metricsCommand, '-a', base, 'demo.alias', 'demo.ctr');
    expect(names.out).toBe('demo.alias.disc\ndemo.ctr\n');
    const d = await run(metricsCommand, '-a', base, '-d', '-T', 'demo.ctr', 'demo.pi');
    expect(d.out).toBe(
      '\ndemo.ctr\n    Data Type: 64-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: counter  Units: count\nHelp:\nA counter,\nwith help.\n' +
        '\ndemo.pi\n    Data Type: 32-bit int  InDom: 60.1 0xf000001\n    Semantics: counter  Units: none\nFull Help: Error: One-line or help text is not available\n',
    );
    const bad = await run(metricsCommand, '-a', base, 'no.such');
    expect(bad.status).toBe(1);
    expect(bad.err).toBe('Error: no.such: Unknown metric name\n');
  });

  it('merges labels per metric and instance, at the first record holding the metric (as pminfo)', async () => {
    const { out } = await run(metricsCommand, '-a', base, '-l', 'demo.pi');
    expect(out).toBe('\ndemo.pi\n    labels {"hostname":"testhost","model":"RGB"}\n    inst [1 or "A"] labels {"hostname":"testhost","model":"RGB"}\n    inst [2 or "B"] labels {"hostname":"testhost","model":"RGB"}\n');
  });
});
