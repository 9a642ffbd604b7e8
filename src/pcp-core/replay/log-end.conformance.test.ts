// pmGetArchiveEnd on QA archives whose end is damaged: libpcp (pmdumplog) cannot locate the
// end either; our PM_ERR_LOGREC names the volume and the byte offset of the record that runs
// past the end of the file, as the corrupt records met by a fetch are named.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DirFileSet } from '../../node/dir-file-set';
import { QA_BADARCHIVES } from '../../../test/oracle';
import { openArchiveContext } from '../context/archive-context';
import { PM_ERR_LOGREC, PmError } from '../errors';

function pmdumplogStderr(path: string): string {
  return spawnSync('pmdumplog', ['-L', path], { encoding: 'utf8' }).stderr;
}

describe('pmGetArchiveEnd on a damaged end', () => {
  for (const name of ['badlen-2', 'badlen-3']) {
    it(`${name}: PM_ERR_LOGREC naming the volume and the offset of the cut record`, async () => {
      const path = `${QA_BADARCHIVES}/${name}`;
      expect(pmdumplogStderr(path)).toContain('Cannot locate end of archive');
      const ctx = await openArchiveContext(new DirFileSet('/'), path);
      try {
        const err = await ctx.archiveEnd().then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(PmError);
        expect((err as PmError).code).toBe(PM_ERR_LOGREC);
        const m = /^(.*\.0) at offset (\d+)$/.exec((err as PmError).context);
        expect(m?.[1]).toBe(`${path}.0`);
        const bytes = readFileSync(`${path}.0`);
        const at = Number(m?.[2]);
        expect(at).toBeGreaterThanOrEqual(132);
        expect(at + bytes.readUInt32BE(at)).toBeGreaterThan(bytes.length);
      } finally {
        await ctx.close();
      }
    });
  }
});
