// `pmdash values` host specifications and libpcp's connection environment, against the live
// pmcd and the PCP tools given the same spec and environment: with neither -a nor -h (the
// local pmcd), local:, unix: (pmcd's socket; its path from pcp.conf as libpcp finds it),
// pcp://HOST[:PORT], port lists, HOST@PROXY; PMCD_PORT, PMPROXY_HOST/PMPROXY_PORT,
// PMCD_SOCKET, PMCD_REQUEST_TIMEOUT. Values of stable metrics equal pminfo -f's; where the
// PCP tool cannot connect, neither can pmdash, and for the same reason.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../test/oracle';
import { defaultPmcdSocket } from '../node/host-spec';
import { main } from './main';

const METRICS = ['hinv.ncpu', 'pmcd.version', 'kernel.uname.sysname'];
/** A "pmcd" that says the real pmcd's hello, then nothing (a port of this test's own range). */
const SILENT_PORT = 18841;

/** The real pmcd's hello PDU (its length is its first word). */
function pmcdHello(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: 'localhost', port: 44321 });
    let got = Buffer.alloc(0);
    s.on('error', reject);
    s.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 4 && got.length >= got.readUInt32BE(0)) {
        s.destroy();
        resolve(got.subarray(0, got.readUInt32BE(0)));
      }
    });
  });
}

async function pmdash(argv: readonly string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const status = await main(['values', ...argv], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
    return { status, stdout, stderr };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** pminfo -f's values: metric → its one value's text. */
function pminfoValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of text.trim().split('\n\n')) {
    const [name, line] = block.split('\n');
    const m = /^\s+value (.*)$/.exec(line ?? '');
    if (name && m) out[name] = m[1];
  }
  return out;
}

/** pmdash's JSON sample as pminfo would print its values (strings quoted). */
function pmdashValues(stdout: string): Record<string, string> {
  const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; values?: Record<string, Record<string, number | string>> });
  const sample = lines.find((l) => l.kind === 'sample');
  return Object.fromEntries(Object.entries(sample?.values ?? {}).map(([k, v]) => [k, typeof v[''] === 'string' ? `"${v['']}"` : String(v[''])]));
}

async function same(hostArgs: readonly string[], env: Record<string, string> = {}): Promise<void> {
  const theirs = await runTool('pminfo', ['-f', ...hostArgs, ...METRICS], { env });
  expect(theirs.status, theirs.stderr).toBe(0);
  const ours = await pmdash(['--json', '-s', '1', ...hostArgs, ...METRICS], env);
  expect(ours.status, ours.stderr).toBe(0);
  expect(pmdashValues(ours.stdout)).toEqual(pminfoValues(theirs.stdout));
}

/** Both fail; the PCP tool's reason is pmdash's too. */
async function bothFail(hostArgs: readonly string[], env: Record<string, string>, reason: RegExp, tool: 'pmval' | 'pminfo' = 'pmval'): Promise<string> {
  const theirs = await runTool(tool, [...(tool === 'pmval' ? ['-s', '1'] : []), ...hostArgs, 'hinv.ncpu'], { env, timeoutMs: 30_000 });
  expect(theirs.status).not.toBe(0);
  expect(theirs.stderr).toMatch(reason);
  const ours = await pmdash(['-s', '1', ...hostArgs, 'hinv.ncpu'], env);
  expect(ours.status).not.toBe(0);
  expect(ours.stderr).toMatch(reason);
  return ours.stderr;
}

describe('pmdash values: PCP host specifications (live pmcd)', () => {
  it('with neither -a nor -h reads the local pmcd, as pmval', async () => {
    await same([]);
    const table = await pmdash(['-s', '1', 'hinv.ncpu']);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^source: {4}local:\n/);
  });
  it.each([['local:'], ['unix:'], [`unix:${defaultPmcdSocket(process.env)}`], [`local:${defaultPmcdSocket(process.env)}`], ['pcp://localhost:44321'], ['pcp://localhost'], ['localhost:44321'], ['localhost@localhost'], ['localhost@localhost:44322'], ['pcp://localhost@localhost']])('-h %s', async (spec) => {
    await same(['-h', spec]);
  });
  it('tries a spec\'s ports in turn', async () => {
    // pminfo takes the same list; port 1 refuses.
    await same(['-h', 'localhost:1,44321']);
  });
});

describe('pmdash values: libpcp\'s connection environment', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    const hello = await pmcdHello();
    silent = createServer((s) => {
      sockets.push(s);
      // The clients hang up on their timeout; the reset that may bring is expected here.
      s.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ECONNRESET') throw e;
      });
      s.write(hello);
    });
    await new Promise<void>((r) => silent.listen(SILENT_PORT, 'localhost', r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('PMCD_PORT: the ports tried when a spec names none', async () => {
    await same(['-h', 'localhost'], { PMCD_PORT: '1,44321' });
    await same([], { PMCD_PORT: '1,44321', PMCD_SOCKET: '/nonexistent/pmcd.socket' });
    await bothFail(['-h', 'localhost'], { PMCD_PORT: '1' }, /Connection refused/);
  });
  it('PMCD_SOCKET: unix: fails without it, local: falls back to localhost', async () => {
    await bothFail(['-h', 'unix:'], { PMCD_SOCKET: '/nonexistent/pmcd.socket' }, /No such file or directory/);
    await same(['-h', 'local:'], { PMCD_SOCKET: '/nonexistent/pmcd.socket' });
  });
  it('PMPROXY_HOST and PMPROXY_PORT: a plain host goes through pmproxy', async () => {
    await same(['-h', 'localhost'], { PMPROXY_HOST: 'localhost' });
    await same(['-h', 'localhost'], { PMPROXY_HOST: 'localhost', PMPROXY_PORT: '44322' });
    // Proof the proxy is used: pmcd is up, the proxy port refuses.
    await bothFail(['-h', 'localhost'], { PMPROXY_HOST: 'localhost', PMPROXY_PORT: '1' }, /Connection refused/);
  });
  it('PMCD_REQUEST_TIMEOUT: a pmcd silent after its hello times out after that many seconds', async () => {
    // pminfo, not pmval: pmval 6.0.3 retries its lookup, and with a timeout under a second
    // waits indefinitely.
    const env = { PMCD_PORT: String(SILENT_PORT), PMCD_REQUEST_TIMEOUT: '0.3' };
    const err = await bothFail(['-h', 'localhost'], env, /Timeout waiting for a response from PMCD/, 'pminfo');
    expect(err).toContain('within 300 ms');
  });
  it('a malformed timeout is ignored with a warning, as libpcp', async () => {
    const r = await pmdash(['--json', '-s', '1', '-h', 'localhost', 'hinv.ncpu'], { PMCD_CONNECT_TIMEOUT: 'soon', PMCD_REQUEST_TIMEOUT: '-1' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("ignored bad PMCD_CONNECT_TIMEOUT = 'soon'");
    expect(r.stderr).toContain("ignored bad PMCD_REQUEST_TIMEOUT = '-1'");
  });
  it('refuses what it does not support, naming the spec', async () => {
    const r = await pmdash(['-s', '1', '-h', 'pcps://localhost', 'hinv.ncpu']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("pcps://localhost");
  });
});
