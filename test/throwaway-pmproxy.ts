// A pmproxy with a key-value store of a test's own: redis-server (valkey-server where the
// distribution has it) and PCP 6.0.3's pmproxy in the foreground (-f: as the current user,
// no pid file), both on free loopback ports, with their own temporary directory for the
// configuration, logs, socket and run files. Tests load archives into it with
// `pmseries --load` against its store, and may crash or restart it: the machine's pmproxy
// and its store (localhost:44322, :6379) are shared and never touched.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { runTool } from './oracle';
import { freePort, pcpConf } from './throwaway-pmcd';

export interface ThrowawayPmproxy {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  readonly storePort: number;
  /** `pmseries ARGS` against this store (-p PORT). */
  pmseries(args: readonly string[]): Promise<{ stdout: string; stderr: string; status: number }>;
  /** pmseries --load ARCHIVE into this store; throws with pmseries's words when it fails. */
  load(archive: string): Promise<void>;
  /** True while pmproxy answers /series/ping. */
  alive(): Promise<boolean>;
  /** pmproxy's log so far (for a failure's message). */
  log(): string;
  /** Starts pmproxy again on the same ports (after a crash or stopProxy), same store. */
  restart(): Promise<void>;
  /** Stops pmproxy only (the store stays): an outage that restart() ends. */
  stopProxy(): Promise<void>;
  stop(): Promise<void>;
}

function storeBinary(): string {
  for (const b of ['/usr/bin/valkey-server', '/usr/bin/redis-server']) if (existsSync(b)) return b;
  throw new Error('neither valkey-server nor redis-server is installed; run scripts/setup.sh');
}

async function waitFor(what: string, ok: () => Promise<boolean>, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up:\n${log()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Fixed ports (a test's own range, e.g. for a server started before it), else free ones. */
export interface ThrowawayPmproxyOptions {
  readonly port?: number;
  readonly storePort?: number;
}

export async function startThrowawayPmproxy(options: ThrowawayPmproxyOptions = {}): Promise<ThrowawayPmproxy> {
  const root = mkdtempSync(join(tmpdir(), 'pmdash-pmproxy-'));
  const storePort = options.storePort ?? (await freePort());
  const port = options.port ?? (await freePort());
  const binadm = pcpConf().PCP_BINADM_DIR ?? '/usr/lib/pcp/bin';
  // An in-memory store: no snapshots, no append-only file, loopback only.
  const store = spawn(storeBinary(), ['--port', String(storePort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  let storeLog = '';
  store.stdout?.on('data', (d: Buffer) => (storeLog += d.toString()));
  store.stderr?.on('data', (d: Buffer) => (storeLog += d.toString()));
  const conf = join(root, 'pmproxy.conf');
  writeFileSync(
    conf,
    [
      '[pmproxy]', 'pcp.enabled = true', 'http.enabled = true', 'redis.enabled = true', 'secure.enabled = false',
      '[redis]', 'enabled = true', `servers = 127.0.0.1:${storePort}`,
      '[discover]', 'enabled = false',
      '[pmsearch]', 'enabled = false',
      '[pmseries]', 'enabled = true', '',
    ].join('\n'),
  );
  const logFile = join(root, 'pmproxy.log');
  const log = (): string => `${existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''}${storeLog}`;
  const url = `http://127.0.0.1:${port}`;
  const alive = async (): Promise<boolean> => {
    try {
      return (await fetch(`${url}/series/ping`)).ok;
    } catch {
      return false;
    }
  };
  const pmseries = (args: readonly string[]): ReturnType<ThrowawayPmproxy['pmseries']> => runTool('pmseries', ['-h', '127.0.0.1', '-p', String(storePort), ...args]);
  await waitFor(`the store on port ${storePort}`, () => Promise.resolve(storeLog.includes('Ready to accept')), log);
  const startProxy = (): ChildProcess =>
    spawn(join(binadm, 'pmproxy'), ['-f', '-A', '-i', '127.0.0.1', '-p', String(port), '-c', conf, '-s', join(root, 'pmproxy.socket'), '-l', logFile, '-U', userInfo().username], {
      stdio: 'ignore',
      // Run files (pid, sockets) in this directory, never the machine's $PCP_RUN_DIR.
      env: { ...process.env, PCP_RUN_DIR: root, PCP_TMP_DIR: root, PCP_LOG_DIR: root },
    });
  let proxy = startProxy();
  await waitFor(`pmproxy on port ${port}`, alive, log);
  return {
    url,
    port,
    storePort,
    pmseries,
    async load(archive) {
      const run = await pmseries(['--load', archive]);
      if (run.status !== 0 || /\[Error\]/.test(run.stderr)) throw new Error(`pmseries --load ${archive}: ${run.stderr}`);
    },
    alive,
    log,
    async restart() {
      await stopChild(proxy);
      proxy = startProxy();
      await waitFor(`pmproxy on port ${port}`, alive, log);
    },
    async stopProxy() {
      await stopChild(proxy);
    },
    async stop() {
      await stopChild(proxy);
      await stopChild(store);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
