// .xz archives under an address-space limit (`ulimit -v 4000000`, 4 GB, where V8 could not
// reserve a WebAssembly memory): the CLI decodes whole blocks with the system's xz, and
// without an xz program with the core's own LZMA2 decoder (no WebAssembly), printing in both
// cases what it prints without the limit.
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

  it('without an xz program: as without the limit, through the core decoder', { timeout: 120_000 }, async () => {
    const argv = ['values', '-a', `${QA_ARCHIVES}/20190628.04.03`, 'kernel.all.load'];
    const free = await cli.run(argv);
    expect(free.status, free.stderr).toBe(0);
    // An empty PATH for pmdash: no xz to run.
    const r = await cli.run(argv, { ulimitV: LIMIT_KB, env: { PATH: '' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(free.stdout);
  });
});
