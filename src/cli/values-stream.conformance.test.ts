// `pmdash values -h` in table mode prints each row as it is taken, as pmval does: when pmcd
// goes away mid-run, the samples already taken are on stdout. pmcd is never restarted here:
// both tools reach the machine's pmcd through a local TCP relay this test owns and kills
// after five rows; pmval through the same kind of relay is the oracle for the behaviour.
import { spawn } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { main } from './main';

/** A relay on `port` to pmcd (localhost:44321) that `kill()` cuts, connections included. */
async function relay(port: number): Promise<{ kill: () => void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(44321, 'localhost');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, 'localhost', resolve));
  return {
    kill: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

/** Data rows of a table: lines starting with a time of day. */
const rows = (text: string): string[] => text.split('\n').filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l));

describe('values -h table streaming', () => {
  it('prints the rows taken before pmcd goes away, as pmval does', { timeout: 60_000 }, async () => {
    // The oracle: pmval prints each sample as it is taken.
    const r1 = await relay(18311);
    const pmval = spawn('pmval', ['-h', 'localhost:18311', '-t', '0.2', '-s', '40', 'hinv.ncpu'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let pmvalOut = '';
    const pmvalDone = new Promise<number | null>((resolve) => pmval.on('close', resolve));
    await new Promise<void>((resolve) => {
      pmval.stdout.on('data', (d: Buffer) => {
        pmvalOut += d.toString();
        if (pmvalOut.split('\n').filter((l) => /^\s+\d+\s*$/.test(l)).length >= 5) resolve();
      });
    });
    r1.kill();
    const killTimer = setTimeout(() => pmval.kill(), 15_000);
    await pmvalDone;
    clearTimeout(killTimer);
    expect(pmvalOut.split('\n').filter((l) => /^\s+\d+\s*$/.test(l)).length).toBeGreaterThanOrEqual(5);

    // Ours, the same way.
    const r2 = await relay(18312);
    let out = '';
    let err = '';
    let killed = false;
    const status = await main(['values', '-h', 'localhost:18312', '-t', '200msec', '-s', '40', 'hinv.ncpu'], {
      stdout: (t) => {
        out += t;
        if (!killed && rows(out).length >= 5) {
          killed = true;
          r2.kill();
        }
      },
      stderr: (t) => void (err += t),
    });
    expect(killed).toBe(true);
    const taken = rows(out);
    expect(taken.length, err).toBeGreaterThanOrEqual(5);
    // The run ended with the relay: one error line naming the host, after the rows.
    expect(status).toBe(1);
    expect(taken.length).toBeLessThan(40);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain('localhost:18312');
    // Every row printed holds pmcd's value, as pmval printed it.
    const ncpu = /^\s+(\d+)\s*$/m.exec(pmvalOut)?.[1];
    for (const row of taken) expect(row.trim().split(/\s+/)[1]).toBe(ncpu);
  });
});
