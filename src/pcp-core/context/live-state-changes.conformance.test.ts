// pmcd's state-change flags (pdu-protocol.md §5.1) against a pmcd of the test's own
// (test/throwaway-pmcd.ts: its own port, directory, pmcd.conf and labels; the machine's pmcd
// is never touched), with libpcp as the oracle: a python3-pcp context connected to the same
// pmcd for the whole session. At each step — the sample PMDA killed (our own pmcd's child),
// pmcd SIGHUPed to restart it, an agent added to pmcd.conf and removed again, a context
// label added — the LiveContext and libpcp fetch the same metrics and must see the same
// flags and the same value-set status; afterwards the LiveContext's answers for the metrics
// concerned (descriptors, help text, context labels), which it caches, must equal what
// libpcp, which caches none of them, gets from pmcd.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON, runTool } from '../../../test/oracle';
import { SAMPLEDSO_AGENT, SAMPLE_AGENT, ThrowawayPmcd } from '../../../test/throwaway-pmcd';
import { openLiveContext } from '../../node/open-live-context';
import { isPmError } from '../errors';
import { PMCD_ADD_AGENT, PMCD_DROP_AGENT, PMCD_LABEL_CHANGE, PMCD_RESTART_AGENT } from '../pdu/constants';
import type { PmId } from '../types';
import { PM_LABEL_CONTEXT } from './context';
import type { LiveContext } from './live-context';

/** One libpcp context kept open across the steps: JSON requests and answers, a line each. */
class LibpcpSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly waiting: Array<(line: string) => void> = [];
  private stderr = '';

  constructor(host: string) {
    this.child = spawn(PYTHON, [`${import.meta.dirname}/../../../test/oracle/live-state-changes.py`, host], { env: { ...process.env, PCP_DERIVED_CONFIG: '' } });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.lines = createInterface({ input: this.child.stdout });
    this.lines.on('line', (line) => this.waiting.shift()?.(line));
  }

  ask<T>(request: object): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`oracle live-state-changes.py did not answer ${JSON.stringify(request)}: ${this.stderr}`)), 30_000);
      this.waiting.push((line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line) as T);
      });
      this.child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
    });
  }
}

interface Fetched {
  readonly flags: number;
  readonly sets: ReadonlyArray<{ readonly pmid: number; readonly numval: number }>;
}

const METRICS = ['sample.long.one', 'sampledso.long.one', 'pmcd.numagents'];
const SAMPLE_PMDA = SAMPLE_AGENT.spec.replace(/^pipe binary /, '');

describe('pmcd state changes seen by a LiveContext and by libpcp (a throwaway pmcd)', () => {
  let pmcd: ThrowawayPmcd;
  let libpcp: LibpcpSession;
  let ctx: LiveContext;
  const seen: number[] = [];

  beforeAll(async () => {
    pmcd = await ThrowawayPmcd.start({ agents: [SAMPLE_AGENT] });
    libpcp = new LibpcpSession(pmcd.host);
    ctx = await openLiveContext(pmcd.host, { reconnectDelaysMs: [] });
    ctx.on('state-change', (e) => seen.push(e.flags));
  });
  afterAll(async () => {
    await ctx?.close();
    await libpcp?.close();
    await pmcd?.dispose();
  });

  /** Both fetch METRICS; our flags are those the fetch's reply carried. */
  async function fetchBoth(): Promise<{ ours: Fetched; theirs: Fetched }> {
    const ids = (await ctx.lookupNames(METRICS)) as PmId[];
    seen.length = 0;
    const r = await ctx.fetch(ids);
    const ours = { flags: seen.reduce((a, f) => a | f, 0), sets: r.sets.map((s) => ({ pmid: s.pmid, numval: s.numval })) };
    const theirs = await libpcp.ask<Fetched>({ op: 'fetch', names: METRICS });
    return { ours, theirs };
  }

  /** Our answers for the metadata we cache, in the oracle's shape. */
  async function ourMetadata(): Promise<{ descs: unknown[]; text: unknown[]; labels: unknown }> {
    const ids = (await ctx.lookupNames(METRICS)) as PmId[];
    const descs = (await ctx.lookupDescs(ids)).map((d) => (typeof d === 'number' ? d : { pmid: d.pmid, type: d.type, indom: d.indom, sem: d.sem }));
    const text = await Promise.all(
      ids.map((id) =>
        ctx.lookupText({ pmid: id }, 'oneline').catch((e: unknown) => {
          if (isPmError(e)) return e.code;
          throw e;
        }),
      ),
    );
    const labels = (await ctx.lookupLabels(PM_LABEL_CONTEXT, 0)).map((s) => s.json);
    return { descs, text, labels };
  }

  async function theirMetadata(): Promise<{ descs: unknown[]; text: unknown[]; labels: unknown }> {
    return {
      descs: await libpcp.ask<unknown[]>({ op: 'descs', names: METRICS }),
      text: await libpcp.ask<unknown[]>({ op: 'text', names: METRICS }),
      labels: await libpcp.ask<unknown>({ op: 'labels' }),
    };
  }

  it('starts with no flags, and caches what it is asked', async () => {
    const { ours, theirs } = await fetchBoth();
    expect(ours).toEqual(theirs);
    expect(theirs.flags).toBe(0);
    expect(await ourMetadata()).toEqual(await theirMetadata());
  });

  it('a PMDA killed: PMCD_DROP_AGENT, its metrics PM_ERR_NOAGENT, its cached metadata dropped', async () => {
    const from = pmcd.readLog().length;
    await pmcd.killAgent(SAMPLE_PMDA);
    // pmcd notices a dead PMDA only when it next talks to it: a third client asks.
    await runTool('pminfo', ['-h', pmcd.host, '-d', 'sample.long.one']);
    await pmcd.waitForLog(/Cleanup "sample" agent/, from);
    const { ours, theirs } = await fetchBoth();
    expect(ours).toEqual(theirs);
    expect(theirs.flags & PMCD_DROP_AGENT).toBe(PMCD_DROP_AGENT);
    // Stale descriptors and help text would still answer here; libpcp gets PM_ERR_NOAGENT.
    expect(await ourMetadata()).toEqual(await theirMetadata());
  });

  it('pmcd SIGHUPed: the dead PMDA restarted, PMCD_RESTART_AGENT', async () => {
    await pmcd.hup();
    const { ours, theirs } = await fetchBoth();
    expect(ours).toEqual(theirs);
    expect(theirs.flags & PMCD_RESTART_AGENT).toBe(PMCD_RESTART_AGENT);
    expect(theirs.sets[0]?.numval).toBe(1);
    expect(await ourMetadata()).toEqual(await theirMetadata());
  });

  it('an agent added to pmcd.conf: PMCD_ADD_AGENT, and its metrics have values', async () => {
    pmcd.writeConfig([SAMPLE_AGENT, SAMPLEDSO_AGENT]);
    await pmcd.hup();
    const { ours, theirs } = await fetchBoth();
    expect(ours).toEqual(theirs);
    expect(theirs.flags & PMCD_ADD_AGENT).toBe(PMCD_ADD_AGENT);
    expect(theirs.sets[1]?.numval).toBe(1);
    expect(await ourMetadata()).toEqual(await theirMetadata());
  });

  it('that agent removed again: PMCD_DROP_AGENT', async () => {
    pmcd.writeConfig([SAMPLE_AGENT]);
    await pmcd.hup();
    const { ours, theirs } = await fetchBoth();
    expect(ours).toEqual(theirs);
    expect(theirs.flags & PMCD_DROP_AGENT).toBe(PMCD_DROP_AGENT);
    expect(await ourMetadata()).toEqual(await theirMetadata());
  });

  it('a context label added: PMCD_LABEL_CHANGE, and the cached context labels are read again', async () => {
    const before = (await ctx.lookupLabels(PM_LABEL_CONTEXT, 0)).map((s) => s.json);
    pmcd.writeContextLabels('pmdash-test.json', '{"pmdash_test":"state-changes"}');
    await pmcd.hup();
    const { ours, theirs } = await fetchBoth();
    expect(ours).toEqual(theirs);
    expect(theirs.flags & PMCD_LABEL_CHANGE).toBe(PMCD_LABEL_CHANGE);
    const after = await ourMetadata();
    expect(after).toEqual(await theirMetadata());
    expect(String(after.labels)).toContain('"pmdash_test":"state-changes"');
    expect(String(before)).not.toContain('pmdash_test');
  });
});
