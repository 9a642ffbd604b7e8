// .xz archives under an address-space limit (`ulimit -v 4000000`, 4 GB): V8 cannot reserve a
// WebAssembly memory there, so the CLI decodes every block — labels included — with the
// system's xz, and prints what it prints without the limit. Without an xz program the
// failure is one line naming the file and the cause, exit status 1, no stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_ARCHIVES } from '../../test/oracle';
import { bundleCli, type CliChild } from '../../test/cli-child';

const LIMIT_KB = 4_000_000;
let cli: CliChild;
beforeAll(async () => {
  cli = await bundleCli();
});
afterAll(() => cli.dispose());

describe('.xz under ulimit -v', () => {
  it.each([
    ['info', ['info', '-a', `${QA_ARCHIVES}/20180606`]],
    ['values across two .xz volumes', ['values', '-a', `${QA_ARCHIVES}/20190628.04.03`, 'kernel.all.load']],
    ['dump', ['dump', '-a', `${QA_ARCHIVES}/20190628.04.03`]],
  ])('%s: as without the limit, through the system xz', { timeout: 180_000 }, async (_what, argv) => {
    const free = await cli.run(argv);
    expect(free.status, free.stderr).toBe(0);
    const limited = await cli.run(argv, { ulimitV: LIMIT_KB });
    expect(limited.stderr).toBe('');
    expect(limited.status).toBe(0);
    expect(limited.stdout).toBe(free.stdout);
  });

  it('without an xz program: one line naming the file and the cause', { timeout: 60_000 }, async () => {
    // An empty PATH for pmdash: no xz to run.
    const r = await cli.run(['info', '-a', `${QA_ARCHIVES}/20180606`], { ulimitV: LIMIT_KB, env: { PATH: '' } });
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('20180606.0.xz');
    expect(lines[0]).toContain('ulimit -v');
    expect(lines[0]).toContain('Cannot allocate memory');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
