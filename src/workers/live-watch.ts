// Live streaming: fetch a chart's metrics from a live context every interval and push each
// result as a one-row SeriesBlock to a callback (a Comlink.proxy in the browser). Rates use
// the same rules as archive windows (column-set.ts) over consecutive live results. The UI
// keeps the history; the worker keeps only the previous values a rate needs.
import type { Context } from '../pcp-core/context/context';
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

export class LiveWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private set: ColumnSet | undefined;
  /** The epoch of the last live result (Result.epoch). */
  private epoch: number | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly spec: LiveWatchSpec,
    private readonly emit: LiveListener,
    /** Runs `body` in the source's call queue so fetches never interleave with others. */
    private readonly queue: <T>(body: () => Promise<T>) => Promise<T>,
    private readonly define?: ExpressionDefiner,
  ) {}

  start(): void {
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const began = Date.now();
    try {
      await this.queue(async () => {
        this.set ??= new ColumnSet(await resolvePlots(this.ctx, this.spec.plots, this.define), this.spec.rate);
        const set = this.set;
        set.allocate(1);
        const result = await this.ctx.fetch(set.pmids);
        // The source reconnected since the last frame (Result.epoch): no rate across it.
        if (result.epoch !== this.epoch) set.restart();
        this.epoch = result.epoch;
        set.apply(result, 0);
        const t = timestampToMs(result.timestamp);
        if (!this.stopped) this.emit({ kind: 'frame', block: { t0Ms: t, t1Ms: t, stepMs: this.spec.intervalMs, timestamps: Float64Array.of(t), plots: set.plots, columns: set.columns() } });
      });
    } catch (e) {
      // A failed fetch breaks the rate chain; the next good one starts afresh.
      this.set?.restart();
      if (!this.stopped) this.emit({ kind: 'error', error: toEngineError(e, 'live fetch') });
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, this.spec.intervalMs - (Date.now() - began)));
  }
}
