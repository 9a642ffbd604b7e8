// A pmcd of a test's own: PCP 6.0.3's pmcd run in the foreground (-f, so as the current user
// and without a pid file) on a free port of the loopback interface, with its own temporary
// directory for pmcd.conf, the PMNS, logs, the Unix socket and run files, serving pmcd's own
// PMDA and the sample PMDA (a pipe agent, so a child process of this pmcd that a test may
// kill). Tests kill that PMDA, SIGHUP this pmcd, rewrite its configuration or labels, or
// restart it — never the machine's pmcd or its PMDAs.
//
// Isolation from the machine's PCP, through the environment pmcd and its PMDAs read
// (environment variables override /etc/pcp.conf, libpcp config.c):
//   PCP_RUN_DIR, PCP_LOG_DIR, PCP_TMP_DIR   this directory: no shared pid, socket or log files;
//   PCP_VAR_DIR                             an empty directory: a pmcd running as root first asks
//                                           pmdaroot (found as $PCP_VAR_DIR/pmcd/root.socket) to
//                                           start pipe agents, which would make the machine's
//                                           pmdaroot their parent; without it pmcd forks them;
//   PCP_SYSCONF_DIR                         this directory's etc/: context labels under test
//                                           control (labels/);
//   PMCD_PORT unset, PMCD_LOCAL=1           only the -p port, loopback only;
//   PMCD_RESTART_AGENTS=0                   a PMDA that dies stays dead until the test's SIGHUP.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from './oracle';

/** One line of pmcd.conf's agent section (man pmcd, AGENT CONFIGURATION). */
export interface AgentLine {
  readonly label: string;
  readonly domain: number;
  /** The rest of the line, e.g. `pipe binary /path/pmdasample -d 29`. */
  readonly spec: string;
}

/** PCP's directories as /etc/pcp.conf (or $PCP_CONF) names them. */
export function pcpConf(): Record<string, string> {
  const text = readFileSync(process.env.PCP_CONF ?? '/etc/pcp.conf', 'utf8');
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_0-9]+)=(.*)$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) out[m[1]] = m[2];
  }
  return out;
}

const conf = pcpConf();
const dir = (key: string): string => {
  const v = conf[key];
  if (v === undefined) throw new Error(`pcp.conf has no ${key}`);
  return v;
};
const PMDAS = dir('PCP_PMDAS_DIR');
const BINADM = dir('PCP_BINADM_DIR');
const VAR = dir('PCP_VAR_DIR');

/** pmcd's own PMDA (pmcd.*), a DSO inside pmcd. */
export const PMCD_AGENT: AgentLine = { label: 'pmcd', domain: 2, spec: `dso pmcd_init ${PMDAS}/pmcd/pmda_pmcd.so` };
/** The sample PMDA as a pipe agent: a child process of pmcd. */
export const SAMPLE_AGENT: AgentLine = { label: 'sample', domain: 29, spec: `pipe binary ${PMDAS}/sample/pmdasample -d 29` };
/** The same PMDA's code as a DSO on domain 30 (sampledso.*), for adding an agent. */
export const SAMPLEDSO_AGENT: AgentLine = { label: 'sampledso', domain: 30, spec: `dso sample_init ${PMDAS}/sample/pmda_sample.so` };

/** A free TCP port on the loopback interface (closed again before pmcd binds it). */
/** A port the OS just had free on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** pids of the processes whose parent is `ppid` (from /proc/PID/stat). */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended while we looked
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === ppid) out.push(Number(entry));
  }
  return out;
}

/** The state letter of /proc/PID/stat (R, S, Z, …), undefined once the process is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export class ThrowawayPmcd {
  private child: ChildProcess | undefined;
  /** The modification time (s) given to the last pmcd.conf written. */
  private configStamp = 0;
  private exited: Promise<void> = Promise.resolve();

  private constructor(
    /** The temporary directory holding everything of this pmcd. */
    readonly dir: string,
    readonly port: number,
  ) {}

  /** `-h` host specification for PCP tools and openLiveContext. */
  get host(): string {
    return `localhost:${this.port}`;
  }

  get pid(): number {
    const pid = this.child?.pid;
    if (pid === undefined) throw new Error('throwaway pmcd is not running');
    return pid;
  }

  get logFile(): string {
    return join(this.dir, 'pmcd.log');
  }

  /** Starts a pmcd with these agents (pmcd's own PMDA always) and optional [access] rules. */
  static async start(options: { agents?: readonly AgentLine[]; access?: readonly string[] } = {}): Promise<ThrowawayPmcd> {
    const root = mkdtempSync(join(tmpdir(), 'pmdash-pmcd-'));
    for (const sub of ['var', 'tmp', 'etc/labels']) mkdirSync(join(root, sub), { recursive: true });
    // One PMNS for pmcd's metrics and the sample PMDA's (sample.*, sampledso.*), merged by
    // pmnsmerge from the files the PMDAs ship.
    const merged = await runTool(`${BINADM}/pmnsmerge`, [`${VAR}/pmns/root_pmcd`, `${PMDAS}/sample/root`, join(root, 'pmns')]);
    if (merged.status !== 0) throw new Error(`pmnsmerge: ${merged.stderr}`);
    let lastError: unknown;
    // The free port is closed before pmcd binds it; another process may take it meanwhile.
    for (let attempt = 0; attempt < 3; attempt++) {
      const pmcd = new ThrowawayPmcd(root, await freePort());
      pmcd.writeConfig(options.agents ?? [PMCD_AGENT, SAMPLE_AGENT], options.access);
      try {
        await pmcd.launch();
        return pmcd;
      } catch (e) {
        lastError = e;
        await pmcd.stop();
      }
    }
    rmSync(root, { recursive: true, force: true });
    throw lastError;
  }

  /** Rewrites pmcd.conf: pmcd's own PMDA first, then `agents`, then the [access] section. */
  writeConfig(agents: readonly AgentLine[], access?: readonly string[]): void {
    const all = agents.some((a) => a.label === 'pmcd') ? agents : [PMCD_AGENT, ...agents];
    const lines = all.map((a) => `${a.label}\t${a.domain}\t${a.spec}`);
    if (access && access.length > 0) lines.push('', '[access]', ...access);
    const file = join(this.dir, 'pmcd.conf');
    writeFileSync(file, `${lines.join('\n')}\n`);
    // pmcd decides on SIGHUP whether its configuration changed by st_mtime in whole seconds,
    // so each version gets a modification time of its own.
    const stamp = Math.max(Math.floor(Date.now() / 1000), this.configStamp + 1);
    this.configStamp = stamp;
    utimesSync(file, stamp, stamp);
  }

  /** Writes (or with `undefined` removes) a context-labels file under etc/labels. */
  writeContextLabels(name: string, json: string | undefined): void {
    const file = join(this.dir, 'etc', 'labels', name);
    if (json === undefined) rmSync(file, { force: true });
    else writeFileSync(file, json);
  }

  private launch(): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PCP_RUN_DIR: this.dir,
      PCP_LOG_DIR: this.dir,
      PCP_TMP_DIR: join(this.dir, 'tmp'),
      PCP_VAR_DIR: join(this.dir, 'var'),
      PCP_SYSCONF_DIR: join(this.dir, 'etc'),
      PCP_PMCDCONF_PATH: join(this.dir, 'pmcd.conf'),
      PMCD_LOCAL: '1',
      PMCD_RESTART_AGENTS: '0',
    };
    delete env.PMCD_PORT;
    const args = ['-f', '-A', '-p', String(this.port), '-c', join(this.dir, 'pmcd.conf'), '-n', join(this.dir, 'pmns'), '-l', this.logFile, '-s', join(this.dir, 'pmcd.socket'), '-x', join(this.dir, 'pmcd.err')];
    const child = spawn(`${BINADM}/pmcd`, args, { env, stdio: 'ignore' });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    return this.waitReady(child);
  }

  /** Ready once its log shows the request ports and a client gets an answer. */
  private async waitReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`throwaway pmcd exited at start: ${this.readLog()}${this.readFile('pmcd.err')}`);
      if (/pmcd request port\(s\):/.test(this.readLog())) {
        const probe = await runTool('pminfo', ['-h', this.host, '-f', 'pmcd.numagents'], { timeoutMs: 10_000 });
        if (probe.status === 0) return;
      }
      await sleep(100);
    }
    throw new Error(`throwaway pmcd did not start on port ${this.port}: ${this.readLog()}`);
  }

  readLog(): string {
    return this.readFile('pmcd.log');
  }

  private readFile(name: string): string {
    const file = join(this.dir, name);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** Waits until the log has grown past `from` characters and matches `pattern` there. */
  async waitForLog(pattern: RegExp, from: number, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const tail = this.readLog().slice(from);
      if (pattern.test(tail)) return tail;
      if (Date.now() > deadline) throw new Error(`throwaway pmcd log: no ${pattern} after offset ${from}:\n${tail}`);
      await sleep(50);
    }
  }

  /**
   * The pid of the pipe agent started with `command` — found among this pmcd's own child
   * processes only, never by name across the machine.
   */
  agentPid(command: string): number {
    const matches = childrenOf(this.pid).filter((p) => cmdline(p).startsWith(command));
    if (matches.length !== 1) throw new Error(`throwaway pmcd ${this.pid}: ${matches.length} children running '${command}'`);
    return matches[0] ?? 0;
  }

  /** SIGKILLs one of this pmcd's own PMDA processes and waits until it is gone. */
  async killAgent(command: string): Promise<void> {
    const pid = this.agentPid(command);
    process.kill(pid, 'SIGKILL');
    // Gone, or a zombie until pmcd notices (pmcd reaps it when it next talks to the agent).
    for (let i = 0; i < 200; i++) {
      const state = processState(pid);
      if (state === undefined || state === 'Z') return;
      await sleep(20);
    }
    throw new Error(`PMDA ${pid} did not die`);
  }

  /** SIGHUPs this pmcd and waits until it has re-read its configuration. */
  async hup(): Promise<void> {
    const from = this.readLog().length;
    process.kill(this.pid, 'SIGHUP');
    // pmcd logs the reconfiguration, ending with its access lists.
    await this.waitForLog(/pmcd RESTARTED[\s\S]*Group access list/, from);
  }

  /** Stops this pmcd (SIGTERM; it stops its PMDAs) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([this.exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) {
      child.kill('SIGKILL');
      await this.exited;
    }
  }

  /** Stops and starts this pmcd again on the same port, as a pmcd restart does. */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  /** Stops this pmcd and removes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
