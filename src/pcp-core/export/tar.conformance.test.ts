// tarFiles against GNU tar: it lists and extracts our archive, byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runTool, scratchDir } from '../../../test/oracle';
import { tarFiles } from './tar';

it('GNU tar extracts what tarFiles packed', async () => {
  const dir = scratchDir('pmdash-tar-');
  const files = [
    { name: 'omnibus-window.meta', bytes: new Uint8Array(10_000).map((_, i) => (i * 7) & 0xff), mtimeSec: 1_700_000_000 },
    { name: 'omnibus-window.index', bytes: new Uint8Array(512).fill(1), mtimeSec: 1_700_000_000 },
    { name: 'omnibus-window.0', bytes: new Uint8Array(3), mtimeSec: 1_700_000_000 },
  ];
  writeFileSync(join(dir, 'x.tar'), tarFiles(files));
  const list = await runTool('tar', ['-tvf', join(dir, 'x.tar')]);
  expect(list.status, list.stderr).toBe(0);
  expect(list.stderr).toBe('');
  expect(list.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/).pop())).toEqual(files.map((f) => f.name));
  const x = await runTool('tar', ['-xf', join(dir, 'x.tar'), '-C', dir]);
  expect(x.status, x.stderr).toBe(0);
  for (const f of files) expect(new Uint8Array(readFileSync(join(dir, f.name)))).toEqual(f.bytes);
});
