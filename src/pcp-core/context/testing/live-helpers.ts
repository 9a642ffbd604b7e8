// Helpers shared by the live conformance tests and benchmarks (Node only: imported from
// *.test.ts files and bench/, never from pcp-core code): open a LiveContext on a real pmcd
// over TCP, optionally hiding hello features so the older PDU paths (FETCH/RESULT, one
// DESC_REQ per PMID, no labels) are exercised against the same pmcd; read `pminfo -f`.
import { TransportEvents, type Transport } from '../../pdu/transport';
import type { PmId, Result } from '../../types';

/** Wraps a transport so the hello's feature word (bytes 18–19 of the stream) loses `mask`. */
export function maskHelloFeatures(inner: Transport, mask: number): Transport {
  if (mask === 0) return inner;
  const events = new TransportEvents();
  let seen = 0;
  inner.onData((chunk) => {
    if (seen < 20) {
      const copy = chunk.slice();
      for (let i = 0; i < copy.length && seen + i < 20; i++) {
        const at = seen + i;
        if (at === 18) copy[i] = (copy[i] ?? 0) & ~(mask >> 8);
        if (at === 19) copy[i] = (copy[i] ?? 0) & ~(mask & 0xff);
      }
      seen += chunk.length;
      events.data(copy);
      return;
    }
    events.data(chunk);
  });
  inner.onClose((e) => events.close(e));
  return {
    peer: inner.peer,
    send: (b) => inner.send(b),
    onData: (h) => events.setData(h),
    onClose: (h) => events.setClose(h),
    close: () => {
      events.close(undefined);
      inner.close();
    },
  };
}

/** `pminfo -f` output → metric → instance id (−1 singular) → value text as printed. */
export function parsePminfoValues(text: string): Map<string, Map<number, string>> {
  const out = new Map<string, Map<number, string>>();
  let current: Map<number, string> | undefined;
  for (const line of text.split('\n')) {
    // pminfo reports a metric without values on a line of its own, starting in column 0.
    if (/^(No value|Error)/.test(line)) continue;
    if (/^\S/.test(line)) {
      const name = line.trim();
      current = new Map();
      out.set(name, current);
      continue;
    }
    const single = /^ {4}value (.*)$/.exec(line);
    if (single && current) {
      current.set(-1, single[1] ?? '');
      continue;
    }
    const inst = /^ {4}inst \[(-?\d+) or ".*"\] value (.*)$/.exec(line);
    if (inst && current) current.set(Number(inst[1]), inst[2] ?? '');
  }
  return out;
}

/**
 * Counts a live context's fetches from now on (the proof that charts and recordings share one
 * fetch per tick): returns a reader of the count.
 */
export function countFetches(ctx: { fetch(ids: readonly PmId[]): Promise<Result> }): () => number {
  let n = 0;
  const inner = ctx.fetch.bind(ctx);
  ctx.fetch = (ids: readonly PmId[]) => {
    n++;
    return inner(ids);
  };
  return () => n;
}
