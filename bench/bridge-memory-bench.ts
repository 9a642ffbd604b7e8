// Bridge memory under clients that never read (issue 16, item 4): `pmdash serve` (its own
// process) in front of the local pmcd; 8 WebSocket clients send CREDS and then, for a few
// seconds, amplifying FETCHes — one PMID named 16 000 times in a 64 KiB PDU, which pmcd
// answers with about 320 KB — without ever reading a byte. The bridge's RSS (/proc) is sampled
// idle, throughout, and after the clients have gone. No native tool does this: the pmdash
// column is the peak RSS above idle in MB (not ms); the row's text has every figure.
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { encodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { encodeFetch } from '../src/pcp-core/pdu/fetch-pdu';
import { encodeProfile } from '../src/pcp-core/pdu/profile-pdu';
import { bridgeUrl } from '../src/pcp-core/pdu/target-spec';
import type { PmId } from '../src/pcp-core/types';
import { openLiveContext } from '../src/node/open-live-context';
import type { MeasuredResult } from './harness';
import { startBridge } from './live-bench';

export const BRIDGE_RSS_BENCH = 'bridge: rss 8 non-reading clients';
const CLIENTS = 8;
const COPIES = 16_000;
const SEND_SECONDS = 10;
/** The client's own send queue is kept below this, so the load is the bridge's, not ours. */
const CLIENT_QUEUE = 2 * 1024 * 1024;

function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) / 1024;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runBridgeMemoryBenchmark(selected: (name: string) => boolean): Promise<MeasuredResult[]> {
  if (!selected(BRIDGE_RSS_BENCH)) return [];
  process.stderr.write(`bench: ${BRIDGE_RSS_BENCH}…\n`);
  let log = '';
  const { origin, proc } = await startBridge((text) => (log += text));
  const pid = proc.pid;
  if (pid === undefined) throw new Error('pmdash serve has no process id');
  try {
    const url = bridgeUrl(origin);
    // One ordinary client first, so that "idle" is a bridge that has served a connection.
    const ctx = await openLiveContext(url, { reconnectDelaysMs: [] });
    const [ncpu] = (await ctx.lookupNames(['hinv.ncpu'])) as PmId[];
    await ctx.close();
    if (ncpu === undefined) throw new Error('hinv.ncpu has no PMID');
    const fetch = encodeFetch(Array.from({ length: COPIES }, () => ncpu), false);
    await sleep(1000);
    const idle = rssMb(pid);

    let sent = 0;
    const closes: number[] = [];
    const clients = await Promise.all(
      Array.from(
        { length: CLIENTS },
        () =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(url, { origin });
            ws.once('open', () => {
              // Never read: the socket is paused before pmcd's hello can arrive.
              ws.pause();
              ws.send(encodeCreds(0));
              ws.send(encodeProfile({ state: 0, entries: [] }));
              resolve(ws);
            });
            ws.once('error', reject);
            ws.once('close', (code) => closes.push(code));
          }),
      ),
    );
    let peak = idle;
    const end = performance.now() + SEND_SECONDS * 1000;
    while (performance.now() < end) {
      for (const ws of clients) {
        while (ws.readyState === WebSocket.OPEN && ws.bufferedAmount < CLIENT_QUEUE) {
          ws.send(fetch);
          sent++;
        }
      }
      peak = Math.max(peak, rssMb(pid));
      await sleep(50);
    }
    for (let i = 0; i < 20; i++) {
      peak = Math.max(peak, rssMb(pid));
      await sleep(50);
    }
    const closedByBridge = [...closes];
    for (const ws of clients) ws.terminate();
    await sleep(3000);
    const after = rssMb(pid);
    process.stderr.write(log.split('\n').filter((l) => l.includes('disconnect') || l.includes('not reading') || l.includes('paus')).slice(0, 20).join('\n') + '\n');

    return [
      {
        name: BRIDGE_RSS_BENCH,
        work:
          `bridge RSS in MB (the pmdash column is MB, not ms): idle ${idle.toFixed(0)}, peak ${peak.toFixed(0)} (+${(peak - idle).toFixed(0)}), ` +
          `3 s after the clients left ${after.toFixed(0)} (+${(after - idle).toFixed(0)}); ${CLIENTS} clients never reading, ${sent} FETCHes of hinv.ncpu ×${COPIES} (64 KiB each) queued in ${SEND_SECONDS} s; ` +
          `closed by the bridge: ${closedByBridge.length === 0 ? 'none' : `${closedByBridge.length} (codes ${closedByBridge.join(', ')})`}`,
        nativeMs: undefined,
        pmdashMs: peak - idle,
        ratio: undefined,
      },
    ];
  } finally {
    proc.kill('SIGTERM');
  }
}
