// printf's %.Nf, %.Ne and %.Pg against glibc's (through python3, whose %-formatting of a
// double is glibc's: exact value, to nearest, ties to even): random doubles of every
// magnitude, exact ties (k + ½ at several scales), zeros, and values near the thresholds
// where %g switches to exponential form. %.Ne at 0…19 digits covers the Number#toExponential
// fast path (c-numeric.ts) with its tie test at every position.
import { describe, expect, it } from 'vitest';
import { PYTHON, runTool } from '../../test/oracle';
import { formatExpC, formatFixedC, formatGC } from './c-numeric';

function values(): number[] {
  // 1.0625 and -1.1875 are exact ties at %.3e, and %.2e of -1.1875 (1.19, not a tie) reads back as another double.
  const out: number[] = [0, -0, 0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 1234.5, 9999.5, 1.0625, -1.1875, 0.0306243896484375, 1.0625 * 2 ** 20, 0.00005, 1e-5, 9.9999e-5, 1e15, 1e16, 1e17, 1e22, 123456789012345680000, 2 ** 52 + 0.5, 2 ** 53];
  let seed = 12345;
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 400; i++) {
    const mag = Math.floor(rnd() * 40) - 20;
    out.push((rnd() - 0.3) * 10 ** mag);
    // Ties at 1..6 decimals: (k + ½)·10^-d made exact in binary by a power-of-two denominator.
    out.push((Math.floor(rnd() * 1e6) + 0.5) / 2 ** Math.floor(rnd() * 6));
  }
  return out;
}

describe('glibc-exact printf conversions', () => {
  it('%.Nf, %.Ne and %.Pg agree with glibc', async () => {
    const xs = values();
    const script = [
      'import sys, json',
      'xs = json.loads(sys.stdin.read())',
      'out = []',
      'for x in xs:',
      '    out.append([("%.*f" % (d, x)) for d in (0, 1, 2, 3, 4, 9)] + [("%.*e" % (d, x)) for d in (0, 1, 3, 9, 19)] + [("%.*g" % (p, x)) for p in (8, 16)])',
      'print(json.dumps(out))',
    ].join('\n');
    // JSON numbers as JavaScript writes them (shortest round trip); -0 spelled so python keeps its sign.
    const r = await runTool(PYTHON, ['-c', script], { input: `[${xs.map((x) => (Object.is(x, -0) ? '-0.0' : String(x))).join(',')}]` });
    expect(r.status, r.stderr).toBe(0);
    const theirs = JSON.parse(r.stdout) as string[][];
    xs.forEach((x, i) => {
      const ours = [...[0, 1, 2, 3, 4, 9].map((d) => formatFixedC(x, d)), ...[0, 1, 3, 9, 19].map((d) => formatExpC(x, d)), ...[8, 16].map((p) => formatGC(x, p))];
      expect(ours, `${x}`).toEqual(theirs[i]);
    });
  });
});
