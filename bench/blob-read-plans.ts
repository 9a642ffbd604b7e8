// What reading a stepped sample's records costs in Chromium, read whole or in parts: the
// question whether a re-seek could read only the parts of its big records that hold the
// wanted metrics (a pmResult's value sets come before its value blocks) and so cost less than
// libpcp's reads. Plans over one data volume of the decompressed QA archive 20180416.10.00,
// laid out as its bursts are (a 180 KB record A, then a 14.4 KB record B, every 10 s; the
// Overview's value sets end about 12.6 KB into A, their value blocks lie 121.7–123.3 KB in),
// one sample every 780 KB (the whole-archive grid's 4 intervals), 8 reads in flight as the
// stepped replay has them:
//   - whole: A_{k-1} … A_k in one read (375 KB), what the replay reads now, as libpcp does;
//   - trimmed: one read ending at A_k's last wanted value block (318 KB);
//   - two: A_{k-1}'s value sets up to hinv.ncpu (12.6 KB), then B_{k-1} … A_k's blocks (138 KB);
//   - three: A_{k-1}'s 12.6 KB, B_{k-1} and A_k's value sets (28 KB), A_k's blocks (1.6 KB);
//   - and every byte of the samples' strides (312 MB, the volume read round) in reads of
//     4 MiB (the read-ahead source's chunks), 16 MiB and 78 MB (about a whole volume).
// CPU is every Chromium process's (/proc), per sample.
import type { Browser } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { MeasuredResult } from './harness';

/** A plan: `reads` ([offset, length] from each unit's start) per unit, `units` units
 *  `stride` bytes apart, covering SAMPLES samples. */
interface Plan {
  readonly name: string;
  readonly reads: readonly (readonly [number, number])[];
  readonly units: number;
  readonly stride: number;
}

const SAMPLES = 400;
const STRIDE = 780_000;

/** Every byte of SAMPLES samples' strides, in reads of `bytes`. */
function sequential(name: string, bytes: number): Plan {
  return { name, reads: [[0, bytes]], units: Math.round((SAMPLES * STRIDE) / bytes), stride: bytes };
}

const PLANS: readonly Plan[] = [
  { name: 'whole 375 KB', reads: [[0, 375_000]], units: SAMPLES, stride: STRIDE },
  { name: 'trimmed 318 KB', reads: [[0, 318_000]], units: SAMPLES, stride: STRIDE },
  { name: 'two reads 12.6 + 138 KB', reads: [[0, 12_600], [180_000, 138_000]], units: SAMPLES, stride: STRIDE },
  { name: 'three reads 12.6 + 28 + 1.6 KB', reads: [[0, 12_600], [180_000, 28_000], [316_000, 1_600]], units: SAMPLES, stride: STRIDE },
  sequential('every byte in 4 MiB reads', 4 * 1024 * 1024),
  sequential('in 16 MiB reads', 16 * 1024 * 1024),
  sequential('in 78 MB reads', 78_000_000),
];

const RUNS = 7;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

/** In a dedicated worker: `units` units of `plan` over `file` (wrapping round at its end),
 *  8 reads in flight. */
const WORKER_SOURCE = `onmessage = async (e) => {
  const { file, plan, units, stride } = e.data;
  const reads = [];
  const room = file.size - Math.max(stride, 1);
  for (let k = 0; k < units; k++) {
    const at = (k * stride) % room;
    for (const [o, n] of plan) reads.push([at + o, at + o + n]);
  }
  let next = 0;
  let done = 0;
  await new Promise((resolve) => {
    const go = () => {
      while (next < reads.length && next - done < 8) {
        const [a, b] = reads[next++];
        file.slice(a, b).arrayBuffer().then(() => (++done === reads.length ? resolve() : go()));
      }
    };
    go();
  });
  postMessage('done');
};`;

/** The row: CPU per sample of each plan (medians of RUNS, plans interleaved). */
export async function blobReadPlans(browser: Browser, url: string, volume: string, cpuMs: () => number): Promise<MeasuredResult> {
  const page = await browser.newPage();
  try {
    await page.goto(`${url}?empty`);
    await page.evaluate(() => {
      const el = document.createElement('input');
      el.type = 'file';
      el.id = 'bench-volume';
      document.body.appendChild(el);
    });
    await page.setInputFiles('#bench-volume', volume);
    await page.evaluate((src) => {
      (window as unknown as { benchWorker: Worker }).benchWorker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    }, WORKER_SOURCE);
    const run = (plan: Plan): Promise<void> =>
      page.evaluate(
        ([reads, units, stride]) =>
          new Promise<void>((resolve) => {
            const w = (window as unknown as { benchWorker: Worker }).benchWorker;
            w.onmessage = () => resolve();
            const file = (document.getElementById('bench-volume') as HTMLInputElement).files?.[0];
            w.postMessage({ file, plan: reads, units, stride });
          }),
        [plan.reads, plan.units, plan.stride] as const,
      );
    const first = PLANS[0];
    if (first) await run(first);
    const perPlan = PLANS.map(() => [] as number[]);
    for (let i = 0; i < RUNS; i++) {
      for (const [p, plan] of PLANS.entries()) {
        const before = cpuMs();
        await run(plan);
        perPlan[p]?.push((cpuMs() - before) / SAMPLES);
      }
    }
    const per = PLANS.map((plan, p) => `${plan.name} ${median(perPlan[p] ?? []).toFixed(2)} ms`).join(', ');
    return {
      name: 'ui: Blob reads per stepped sample',
      work: `CPU of every Chromium process per sample (${SAMPLES} samples ${STRIDE / 1000} KB apart in a data volume of the decompressed QA archive, 8 reads in flight, medians of ${RUNS}) for reading a stepped sample's records whole or only the parts holding the Overview's metrics, or every byte of the samples' strides: ${per}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'}`,
      nativeMs: undefined,
      pmdashMs: median(perPlan[0] ?? []),
      ratio: undefined,
      unit: 'ms CPU/sample',
    };
  } finally {
    await page.close();
  }
}
