// `pmdash values -h` while pmcd restarts, on a pmcd of the test's own (test/throwaway-pmcd.ts;
// the machine's pmcd is never touched). pmcd.pdu_in.total counts from zero again in the new
// pmcd; the test then drives it above its value before the restart, so a rate across the
// restart would come out positive and plausible — a bogus value. The context reconnects
// between two samples (no fetch fails), and, as with pmval, whose fetch would have failed,
// the first sample on the new connection has no rate; the next has an ordinary one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ThrowawayPmcd } from '../../test/throwaway-pmcd';
import { openTcpTransport } from '../node/tcp-transport';
import { PduClient } from '../pcp-core/pdu/client';
import { main } from './main';

interface Line {
  readonly kind: string;
  readonly time?: string;
  readonly values?: Record<string, Record<string, number | null>>;
}

/** `count` PMNS_NAMES requests over one connection: pmcd.pdu_in.total grows by that much. */
async function traffic(port: number, count: number): Promise<void> {
  const client = await PduClient.connect(await openTcpTransport('localhost', port));
  await Promise.all(Array.from({ length: count }, () => client.lookupNames(['pmcd.numagents'])));
  client.close();
}

describe('pmdash values -h across a pmcd restart (a throwaway pmcd)', () => {
  let pmcd: ThrowawayPmcd;
  beforeAll(async () => {
    pmcd = await ThrowawayPmcd.start();
  });
  afterAll(async () => {
    await pmcd?.dispose();
  });

  it('keeps sampling, with no rate for the first sample after the reconnect', async () => {
    const lines: Line[] = [];
    let err = '';
    let restarted: Promise<void> | undefined;
    const io = {
      stdout: (text: string) => {
        for (const l of text.split('\n')) if (l !== '') lines.push(JSON.parse(l) as Line);
        // After the second sample: restart pmcd, then push its counter past the old value.
        if (lines.length === 3 && !restarted) restarted = pmcd.restart().then(() => traffic(pmcd.port, 300));
      },
      stderr: (text: string) => void (err += text),
    };
    const status = await main(['values', '-h', pmcd.host, '-t', '3', '-s', '4', '--json', 'pmcd.pdu_in.total'], io);
    await restarted;
    expect(status, err).toBe(0);
    const rates = lines.slice(1).map((l) => {
      const v = l.values?.['pmcd.pdu_in.total'];
      return v && '' in v ? v[''] : 'missing';
    });
    expect(rates.length).toBe(4);
    expect(rates[0]).toBeNull();
    expect(rates[1]).toBeGreaterThan(0);
    // The first sample on the new connection: no rate, although the counter went up.
    expect(rates[2]).toBeNull();
    expect(rates[3]).toBeGreaterThan(0);
    expect(rates[3]).toBeLessThan(20);
  });
});
