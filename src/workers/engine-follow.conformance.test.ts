// The engine following an archive a real pmlogger is writing (test/pmlogger-run.ts), opened
// by URL over HTTP Range reads: a window past the end it had when opened has no values; after
// EngineApi.follow the end has grown and the same window has pmval's values.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { serveDirectory, type TestServer } from '../node/testing/http-server';
import { startPmlogger, type RunningLogger } from '../../test/pmlogger-run';
import { EngineApi } from './engine-api';

/** pmval's "1 minute" load average, `samples` at 1 s from `offsetSec` after the start. */
function pmvalLoad(archive: string, offsetSec: number, samples: number): number[] {
  const out = execFileSync('pmval', ['-z', '-f', '6', '-a', archive, '-S', `+${offsetSec}`, '-t', '1', '-s', String(samples), '-i', '"1 minute"', 'kernel.all.load'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[1]));
}

let logger: RunningLogger | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  await logger?.remove();
  server = logger = undefined;
});

describe('EngineApi.follow', () => {
  it('reads a growing URL archive again: new samples reach the series', { timeout: 90_000 }, async () => {
    logger = await startPmlogger({ samplesPerVolume: 3, minSamples: 3 });
    server = await serveDirectory(logger.dir, 'ranged');
    const api = new EngineApi();
    const summary = await api.open({ kind: 'url', url: `${server.url}growing` });
    expect(summary.followable).toBe(true);
    const opened = await logger.samplesNow();
    // A window of whole seconds after the start, beyond the end at opening.
    const firstSec = Math.ceil((summary.endMs - summary.startMs) / 1000) + 1;
    const rows = 4;
    const window = async (): Promise<number[]> => {
      const t0Ms = summary.startMs + firstSec * 1000;
      const block = await api.fetchSeries({ handle: summary.handle, plots: [{ metric: 'kernel.all.load', instances: { kind: 'list', names: ['1 minute'] } }], t0Ms, t1Ms: t0Ms + (rows - 1) * 1000, stepMs: 1000, rate: true });
      return [...(block.columns[0]?.values ?? [])];
    };
    expect((await window()).every((v) => Number.isNaN(v))).toBe(true);
    while ((await logger.samplesNow()) < opened + firstSec + rows) await new Promise((r) => setTimeout(r, 500));
    const endMs = (await api.follow(summary.handle))?.endMs;
    expect(endMs).toBeGreaterThan(summary.startMs + (firstSec + rows - 1) * 1000);
    const ours = await window();
    expect(ours).toHaveLength(rows);
    const want = pmvalLoad(logger.archive, firstSec, rows);
    ours.forEach((v, i) => expect(v, `row ${i}`).toBeCloseTo(want[i] ?? NaN, 5));
    await api.close(summary.handle);
  });
});
