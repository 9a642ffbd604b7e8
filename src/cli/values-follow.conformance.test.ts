// `pmdash values -a ARCHIVE --follow` on an archive a real pmlogger is writing during the test
// (test/pmlogger-run.ts: new volumes every 4 samples): samples are taken as the archive's end
// reaches their time, far past where the archive ended when the command opened it, and once
// pmlogger has stopped every row equals pmval's for the same archive, samples and interval.
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { main } from './main';
import { runTool } from '../../test/oracle';
import { startPmlogger, type RunningLogger } from '../../test/pmlogger-run';

/** Data rows: time of day and the value text, pmval's "No values available" as our "?". */
const rows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((l) => /^\d\d:\d\d:\d\d\.\d{3}\s/.test(l))
    .map((l) => l.replace('No values available', '?').trim().split(/\s+/));

let logger: RunningLogger | undefined;
let second: RunningLogger | undefined;
afterEach(async () => {
  await second?.stop();
  await logger?.remove();
  logger = undefined;
  second = undefined;
});

describe('values --follow', () => {
  it('follows an archive pmlogger is writing, row for row as pmval reads it afterwards', { timeout: 90_000 }, async () => {
    logger = await startPmlogger({ samplesPerVolume: 4, minSamples: 2 });
    const atOpen = await logger.samplesNow();
    const samples = atOpen + 10;
    let out = '';
    let err = '';
    const status = await main(['values', '-a', logger.archive, '--follow', '-t', '1', '-s', String(samples), 'kernel.all.cpu.user'], {
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    });
    expect(status, err).toBe(0);
    await logger.stop();
    // pmlogger switched volumes while we followed.
    const volumes = readdirSync(logger.dir).filter((f) => /^growing\.\d+$/.test(f));
    expect(volumes.length).toBeGreaterThanOrEqual(3);
    const pmval = await runTool('pmval', ['-a', logger.archive, '-t', '1', '-s', String(samples), 'kernel.all.cpu.user']);
    expect(pmval.status, pmval.stderr).toBe(0);
    const theirs = rows(pmval.stdout);
    const ours = rows(out);
    expect(theirs).toHaveLength(samples);
    expect(ours).toEqual(theirs);
    // Most rows lay beyond the archive's end when the command opened it, and carry values.
    expect(ours.slice(atOpen).filter((r) => r[1] !== '?').length).toBeGreaterThanOrEqual(9);
  });

  it('stops at a -T that lay beyond the end when it opened, as pmval -T reads it afterwards', { timeout: 90_000 }, async () => {
    logger = await startPmlogger({ samplesPerVolume: 4, minSamples: 2 });
    const atOpen = await logger.samplesNow();
    const finish = `+${atOpen + 5}`;
    let out = '';
    let err = '';
    const status = await main(['values', '-a', logger.archive, '--follow', '-t', '1', '-T', finish, 'mem.util.free'], {
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    });
    expect(status, err).toBe(0);
    await logger.stop();
    const pmval = await runTool('pmval', ['-a', logger.archive, '-t', '1', '-T', finish, 'mem.util.free']);
    expect(pmval.status, pmval.stderr).toBe(0);
    const theirs = rows(pmval.stdout);
    expect(theirs.length).toBeGreaterThan(atOpen + 4);
    expect(rows(out)).toEqual(theirs);
  });

  it('follows a directory into the archive a second pmlogger run starts there, row for row as pmval -a DIR reads it afterwards', { timeout: 120_000 }, async () => {
    logger = await startPmlogger({ samplesPerVolume: 4, minSamples: 2, name: 'first' });
    const atOpen = await logger.samplesNow();
    // About 4 samples of the first run after opening, a gap of a few seconds, then at least 6 of the second.
    const samples = atOpen + 16;
    let out = '';
    let err = '';
    const running = main(['values', '-a', logger.dir, '--follow', '-t', '1', '-s', String(samples), 'mem.util.free'], {
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    });
    while ((await logger.samplesNow()) < atOpen + 4) await new Promise((r) => setTimeout(r, 200));
    await logger.stop();
    const firstRows = await logger.samplesNow();
    second = await startPmlogger({ dir: logger.dir, samplesPerVolume: 4, minSamples: 1, name: 'second' });
    const status = await running;
    expect(status, err).toBe(0);
    await second.stop();
    const pmval = await runTool('pmval', ['-a', logger.dir, '-t', '1', '-s', String(samples), 'mem.util.free']);
    expect(pmval.status, pmval.stderr).toBe(0);
    const theirs = rows(pmval.stdout);
    expect(theirs).toHaveLength(samples);
    expect(rows(out)).toEqual(theirs);
    // Both archives gave values: rows of the second run lie past the first run's last sample.
    expect(theirs.slice(firstRows + 3).filter((r) => r[1] !== '?').length).toBeGreaterThanOrEqual(3);
  });

  it('refuses --follow without an archive', async () => {
    let err = '';
    const status = await main(['values', '-h', 'localhost', '--follow', '-s', '1', 'hinv.ncpu'], { stdout: () => undefined, stderr: (t) => void (err += t) });
    expect(status).not.toBe(0);
    expect(err).toContain('--follow');
  });
});
