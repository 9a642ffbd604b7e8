// Record for live sources (pmchart's Record): the metrics of the charts the UI names are
// written into a V3 archive from the results of the source's live feed — a LiveTap, so their
// pmids join the one fetch per tick the charts already do and pmcd sees no extra fetch.
// Derived metrics (PCP's standard ones, a chart's expression) are recorded as their operands,
// as a view reopened on the archive evaluates them again from there. Memory is bounded by
// RECORD_CAP_BYTES; past it the recording keeps what it has and says it is capped.
import { ResultRecorder } from '../pcp-core/archive-writer';
import type { DerivedContext } from '../pcp-core/derived/derived-context';
import { tarParts } from '../pcp-core/export/tar';
import type { PmId, Result, Timestamp } from '../pcp-core/types';
import { toEngineError } from './engine-error';
import type { EngineError, PlotRequest, RecordedArchive, RecordingStatus } from './engine-types';

export type { RecordedArchive, RecordingStatus };
import type { LiveTap } from './live-watch';
import { resolvePlots, type ExpressionDefiner } from './plot-resolve';
import { compactUtc } from './archive-export';

/** Bound on one recording's archive (all three files); the UI names it when reached. */
export const RECORD_CAP_BYTES = 64 * 1024 * 1024;

const toMs = (t: Timestamp): number => t.sec * 1000 + t.nsec / 1e6;

export class LiveRecording implements LiveTap {
  private error: EngineError | undefined;
  private firstMs = NaN;
  private lastMs = NaN;

  private constructor(
    readonly id: number,
    private readonly recorder: ResultRecorder,
    private readonly hostname: string,
  ) {}

  /** Resolves the plots against the source and reads the recorded metrics' metadata. */
  static async start(id: number, ctx: DerivedContext, plots: readonly PlotRequest[], define: ExpressionDefiner, capBytes = RECORD_CAP_BYTES): Promise<LiveRecording> {
    const pmids: PmId[] = [];
    for (const p of await resolvePlots(ctx, plots, define)) {
      if (!p.ok) continue;
      const operands = await ctx.operandsOf(p.pmid);
      pmids.push(...(operands ?? [p.pmid]));
    }
    const recorder = await ResultRecorder.create(ctx, pmids, { pid: 0, capBytes });
    return new LiveRecording(id, recorder, ctx.source.hostname);
  }

  get pmids(): readonly PmId[] {
    return this.stopped ? [] : this.recorder.metrics;
  }

  private get stopped(): boolean {
    return this.error !== undefined || this.recorder.capped;
  }

  async take(result: Result): Promise<void> {
    if (this.stopped) return;
    try {
      await this.recorder.take(result);
      if (Number.isNaN(this.firstMs)) this.firstMs = toMs(result.timestamp);
      this.lastMs = toMs(result.timestamp);
    } catch (e) {
      // The recording stops; the charts sharing the fetch carry on.
      this.error = toEngineError(e, `recording of ${this.hostname}`);
    }
  }

  status(): RecordingStatus {
    return {
      id: this.id,
      metrics: this.recorder.metrics.length,
      records: this.recorder.records,
      bytes: this.recorder.bytes,
      capBytes: RECORD_CAP_BYTES,
      capped: this.recorder.capped,
      ...(this.error ? { error: this.error } : {}),
      firstMs: this.firstMs,
      lastMs: this.lastMs,
    };
  }

  /** The archive as a .tar (with `view`, a view file of the recorded charts, beside it). */
  finish(view?: string): RecordedArchive {
    const image = this.recorder.finish();
    const base = `${this.hostname.replace(/[^A-Za-z0-9._-]/g, '_') || 'pmdash'}-${compactUtc(toMs(image.label.start))}`;
    const mtimeSec = Math.floor(Date.now() / 1000);
    const files = [
      { name: `${base}.meta`, bytes: image.meta, mtimeSec },
      { name: `${base}.index`, bytes: image.index, mtimeSec },
      { name: `${base}.0`, bytes: image.volumeParts, mtimeSec },
    ];
    if (view !== undefined) files.push({ name: `${base}.view`, bytes: new TextEncoder().encode(view), mtimeSec });
    return { base, tarParts: tarParts(files), status: this.status() };
  }
}
