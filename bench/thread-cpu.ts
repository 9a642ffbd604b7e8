// Preloaded into a `pmdash values` run by the replay bench (node --import, built as
// dist/node/thread-cpu.js): as the process exits, its CPU time split between the main thread
// (our JavaScript, the interpreter and baseline code, the GC's pauses) and every other thread
// (V8's platform workers: TurboFan compiling in the background, concurrent marking and
// sweeping; libuv's pool), from each thread's se.sum_exec_runtime in /proc/self/task/*/sched
// (nanosecond accounting; the stat files count 10 ms ticks). Written to stderr as one line,
// `THREAD_CPU <main ms> <other ms>`; nothing where the kernel has no sched files.
import { readdirSync, readFileSync } from 'node:fs';

function runtimeMs(tid: string): number | undefined {
  try {
    const m = /se\.sum_exec_runtime\s*:\s*([\d.]+)/.exec(readFileSync(`/proc/self/task/${tid}/sched`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch (e) {
    // A thread that ended between the listing and the read: its time is lost either way.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
    throw e;
  }
}

process.on('exit', () => {
  let main: number | undefined;
  let other = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    const ms = runtimeMs(tid);
    if (ms === undefined) continue;
    if (Number(tid) === process.pid) main = ms;
    else other += ms;
  }
  if (main !== undefined) process.stderr.write(`THREAD_CPU ${main.toFixed(3)} ${other.toFixed(3)}\n`);
});
