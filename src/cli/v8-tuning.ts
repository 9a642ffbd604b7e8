// The V8 settings of the pmdash command, in one place: a CLI run is a short-lived process
// that replays thousands of samples through the same code, which V8's defaults (made for
// long-lived pages and servers) serve poorly. Each setting is a flag V8 reads when it acts
// (when it grows the young generation, compiles a function, inlines a call), so setting it
// at run time takes effect from then on. Measured in bench/README.md (replay-bench.ts rows).
import { setFlagsFromString } from 'node:v8';

/**
 * At start, for every command but `serve` (a long-lived server keeps V8's default): the young
 * generation grows ×16 when it first fills, not ×2. A replay allocates steadily (a value, a
 * time, a table cell per sample; doubles boxed until V8 has compiled the loop) over a heap
 * the archive's metadata has just filled. Grown ×2 at a time, the young generation stays a
 * few MB: each scavenge copies the metadata's young objects again and promotes them, and a
 * whole-heap collection follows mid-replay, its marking on the core V8's compiler needs.
 * Grown ×16 it reaches V8's cap (16 MB semi-spaces) at once, and a `values` run of 10^4
 * samples needs no further collection: ~7 ms less for 20180102 at 1 s, ~3 MB more resident.
 */
export function tuneHeapFor(command: string | undefined): void {
  if (command !== 'serve') setFlagsFromString('--semi-space-growth-factor=16');
}

/**
 * Before an archive replay, after start-up and the metadata (whose code runs too few times
 * to gain): the fetch, rate and format code runs once per sample, thousands of times in a
 * process that then ends. Compiled straight to baseline code (Sparkplug) on first call
 * rather than interpreted until warm, a whole run took 381 ms of CPU against 427 (three
 * metrics over 20180102, 11,652 samples; interleaved runs on a loaded machine). TurboFan
 * then inlines less (a cumulative budget of 100 bytecodes, not 920): the same functions
 * compile on their own instead of again inside each caller, and V8's helper threads used
 * 20-50 ms less CPU per whole run over 20180102, the main thread's loop the same. Measured
 * again with the young generation above (2026-11-27, sampling phase of a singular run):
 * without either flag 60.0 ms, without the inlining budget 50.4, without Sparkplug 46.9,
 * with both 43.7; budgets of 30, 60 and 150 gave 44.6, 43.4 and 43.7. And a function is
 * marked for TurboFan after twice the bytecode V8 waits for by default (an interrupt budget
 * of 132 KB, not 66): on two cores the compiler shares one with the collector, and fewer,
 * later compilations of the functions that stay hot reach the replay sooner than many early
 * ones (sampling phase over 20180102, medians of interleaved runs: singular 42.7 → 40.2 ms,
 * N=21; 5-instance 57.3 → 55.9, 3 metrics 69.4 → 63.0, N=15; ×3, ×4 gained less, ×6 lost,
 * and earlier marking, ×½ or fewer ticks, lost 5–7 ms).
 */
export function tuneForReplay(): void {
  setFlagsFromString('--always-sparkplug');
  setFlagsFromString('--max-inlined-bytecode-size-cumulative=100');
  setFlagsFromString('--interrupt-budget=135168');
}
