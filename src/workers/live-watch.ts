// Live streaming: every chart watching a live source at the same interval shares one feed,
// and the feed does one fetch per interval with the union of the watchers' pmids (pmchart
// and pmtime: one pmFetch per tick for all charts of a host). Each watcher gets its own
// one-row SeriesBlock from that one result, as its own ColumnSet reads it: its instances,
// its rate rules (column-set.ts) over consecutive results. Derived metrics are pmids of the
// source's DerivedContext, whose fetch asks pmcd for their operands in the same PDU. The UI
// keeps the history; the worker keeps only the previous values a rate needs.
import type { Context } from '../pcp-core/context/context';
import type { PmId, Result } from '../pcp-core/types';
import { ColumnSet } from './column-set';
import { toEngineError } from './engine-error';
import type { LiveListener, PlotRequest } from './engine-types';
import { resolvePlots, type ExpressionDefiner } from './plot-resolve';
import { timestampToMs } from './series-time';

export type { LiveEvent, LiveListener } from './engine-types';

export interface LiveWatchSpec {
  readonly plots: readonly PlotRequest[];
  readonly rate: boolean;
  readonly intervalMs: number;
}

/**
 * Something else that reads the feed's results (a recording): its pmids join the one fetch
 * per tick and it gets every raw result, so it costs pmcd no extra fetch.
 */
export interface LiveTap {
  readonly pmids: readonly PmId[];
  take(result: Result): Promise<void>;
}

/** One chart's share of a feed. */
interface Watcher {
  readonly spec: LiveWatchSpec;
  readonly emit: LiveListener;
  set: ColumnSet | undefined;
  /** The epoch of the last live result this watcher saw (Result.epoch). */
  epoch: number | undefined;
  /** Removed: a fetch still out must not emit to it. */
  gone: boolean;
}

/** One source at one interval: a timer, one fetch per tick, frames fanned out to watchers. */
export class LiveFeed {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private readonly watchers = new Map<number, Watcher>();
  private readonly taps = new Set<LiveTap>();

  constructor(
    private readonly ctx: Context,
    readonly intervalMs: number,
    /** Runs `body` in the source's call queue so fetches never interleave with others. */
    private readonly queue: <T>(body: () => Promise<T>) => Promise<T>,
    private readonly define?: ExpressionDefiner,
  ) {}

  get size(): number {
    return this.watchers.size;
  }

  /** Adds a watcher; it gets its first frame at the feed's next tick (at once when idle). */
  add(id: number, spec: LiveWatchSpec, emit: LiveListener): void {
    this.watchers.set(id, { spec, emit, set: undefined, epoch: undefined, gone: false });
    if (!this.running) {
      this.running = true;
      void this.tick();
    }
  }

  /** Removes a watcher; the feed stops with its last one. Returns whether it was here. */
  remove(id: number): boolean {
    const w = this.watchers.get(id);
    if (w) w.gone = true;
    const had = this.watchers.delete(id);
    if (this.watchers.size === 0) this.stop();
    return had;
  }

  /** Adds a reader of raw results; it rides on the watchers' ticks (the feed runs while charts watch). */
  addTap(tap: LiveTap): void {
    this.taps.add(tap);
  }

  removeTap(tap: LiveTap): void {
    this.taps.delete(tap);
  }

  stop(): void {
    for (const w of this.watchers.values()) w.gone = true;
    this.watchers.clear();
    this.running = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (!this.running) return;
    const began = Date.now();
    await this.queue(() => this.fetchOnce()).catch((e: unknown) => {
      // A failed fetch breaks every rate chain; the next good one starts afresh.
      const error = toEngineError(e, 'live fetch');
      for (const w of this.watchers.values()) {
        w.set?.restart();
        w.emit({ kind: 'error', error });
      }
    });
    if (!this.running) return;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, this.intervalMs - (Date.now() - began)));
  }

  private async fetchOnce(): Promise<void> {
    const current = [...this.watchers.values()];
    for (const w of current) w.set ??= new ColumnSet(await resolvePlots(this.ctx, w.spec.plots, this.define), w.spec.rate);
    const union = new Set<PmId>();
    for (const w of current) for (const id of w.set?.pmids ?? []) union.add(id);
    const taps = [...this.taps];
    for (const tap of taps) for (const id of tap.pmids) union.add(id);
    // Every plot an error: nothing to ask pmcd, but each chart still gets its plots and errors.
    const result = union.size > 0 ? await this.ctx.fetch([...union]) : undefined;
    const t = result ? timestampToMs(result.timestamp) : Date.now();
    for (const w of current) {
      const set = w.set;
      // Removed while the fetch was out: nothing more for it.
      if (!set || w.gone) continue;
      set.allocate(1);
      // The source reconnected since this watcher's last frame (Result.epoch): no rate across it.
      if (result && result.epoch !== w.epoch) set.restart();
      w.epoch = result?.epoch;
      if (result) set.apply(result, 0);
      w.emit({ kind: 'frame', block: frame(set, t, this.intervalMs) });
    }
    if (result) for (const tap of taps) if (this.taps.has(tap)) await tap.take(result);
  }
}

function frame(set: ColumnSet, t: number, stepMs: number): { t0Ms: number; t1Ms: number; stepMs: number; timestamps: Float64Array; plots: ColumnSet['plots']; columns: ReturnType<ColumnSet['columns']> } {
  return { t0Ms: t, t1Ms: t, stepMs, timestamps: Float64Array.of(t), plots: set.plots, columns: set.columns() };
}
