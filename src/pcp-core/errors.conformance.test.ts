import { describe, expect, it } from 'vitest';
import { runTool } from '../../test/oracle';
import { pmErrStr, pmErrSymbol } from './errors';

describe('pmErrStr against pmerr(1)', () => {
  it('gives the text and symbol of every PCP error code', async () => {
    const run = await runTool('pmerr', ['-l']);
    // pmerr -l exits 1 after listing (PCP 6.0.3); the listing is what matters.
    const rows = run.stdout
      .split('\n')
      .slice(1)
      .map((line) => /^\s*(-\d+)\s+(\S+)\s+(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null);
    expect(rows.length).toBeGreaterThan(60);
    for (const [, code, symbol, text] of rows) {
      expect([pmErrSymbol(Number(code)), pmErrStr(Number(code))]).toEqual([symbol, text]);
    }
  });

  it('gives the text of errno values and unknown codes', async () => {
    for (const code of [-2, -13, -22, -104, -110, -111, -12500]) {
      const run = await runTool('pmerr', [String(code)]);
      const text = /Text: (.*)$/m.exec(run.stdout)?.[1];
      expect(pmErrStr(code)).toBe(text);
    }
  });
});
