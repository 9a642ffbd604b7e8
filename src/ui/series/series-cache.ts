// Series blocks live here, outside the store (docs/design.md "Store"): one entry per chart
// and source, holding the newest padded window and a version number that the chart's
// component subscribes to (Excalidraw's sceneNonce). Requests are "newest wins": while one
// is in flight only the latest wish is kept, and it is sent when the first returns
// (Perfetto's AsyncLimiter), so dragging the slider never queues stale fetches. Requests
// made in the same tick for the same source and window (every chart of a tab moves together)
// go to the engine as one, so the archive is replayed once for all of them.
//
// Memory: the blocks held are bounded by SERIES_BUDGET_BYTES. Past it, the least recently
// wanted charts' blocks are trimmed to what they show (their padding goes: the next move
// fetches it again), so no chart on screen ever goes blank for the budget's sake.
import { asEngineError, getEngine } from '../engine-client';
import type { EngineError, PlotRequest, SeriesBlock, SourceHandle } from '../../workers/engine-types';
import { covers, firstTail, neededWindow, paddedWindow, type Window } from './buffered-window';

/** What one chart needs from one source. */
export interface SeriesWish {
  readonly handle: SourceHandle;
  readonly plots: readonly PlotRequest[];
  readonly rate: boolean;
  readonly visible: { readonly t0Ms: number; readonly t1Ms: number };
  readonly bounds: { readonly startMs: number; readonly endMs: number };
  readonly anchorMs: number;
  readonly stepMs: number;
}

export interface SeriesEntry {
  readonly block: SeriesBlock | undefined;
  readonly error: EngineError | undefined;
  readonly loading: boolean;
}

type Fetcher = (req: { handle: SourceHandle; plots: readonly PlotRequest[]; rate: boolean } & Window) => Promise<SeriesBlock>;

/** Bytes of series blocks held for every chart together (src/pcp-core/io/README.md budgets). */
export const SERIES_BUDGET_BYTES = 32 * 1024 * 1024;

interface Slot {
  specKey: string;
  block: SeriesBlock | undefined;
  /** What the chart shows now: trimming keeps this part of the block. */
  visible: Window | undefined;
  error: EngineError | undefined;
  inflight: boolean;
  pending: SeriesWish | undefined;
  snapshot: SeriesEntry;
  /** The source's end when the block was asked for: past it the block holds no values yet. */
  askedEndMs: number;
}

/** A request's answers: the whole window, and first a part of it when one was asked for. */
interface Answers {
  readonly first: Promise<SeriesBlock> | undefined;
  readonly whole: Promise<SeriesBlock>;
}

const EMPTY: SeriesEntry = { block: undefined, error: undefined, loading: false };

export class SeriesCache {
  private readonly slots = new Map<string, Slot>();
  private readonly versions = new Map<string, number>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    private readonly fetcher: Fetcher = (req) => getEngine().fetchSeries(req),
    private readonly budgetBytes = SERIES_BUDGET_BYTES,
  ) {}

  /** Bytes of the blocks held now. */
  get bytes(): number {
    let n = 0;
    for (const slot of this.slots.values()) n += slot.block ? blockBytes(slot.block) : 0;
    return n;
  }

  /** Trims the least recently wanted blocks (never `keep`) to their visible rows while over budget. */
  private enforceBudget(keep: Slot): void {
    let total = this.bytes;
    for (const [key, slot] of this.slots) {
      if (total <= this.budgetBytes) return;
      if (slot === keep || !slot.block || !slot.visible) continue;
      const trimmed = trimBlock(slot.block, slot.visible);
      if (trimmed === slot.block) continue;
      total += blockBytes(trimmed) - blockBytes(slot.block);
      slot.block = trimmed;
      this.publish(key.slice(0, key.indexOf('|')), slot);
    }
  }

  /** Requests waiting for this tick's flush, grouped by source, rate and window (and first part). */
  private batch = new Map<string, { req: Omit<Parameters<Fetcher>[0], 'plots'>; first: Window | undefined; members: { plots: readonly PlotRequest[]; done: (r: Answers) => void }[] }>();

  /**
   * Queues one chart's request; all of a tick's requests with the same key share a fetch.
   * With `first`, that part of the window is fetched first, and answered on its own too.
   */
  private enqueue(req: Parameters<Fetcher>[0], first?: Window): Promise<Answers> {
    return new Promise((resolve) => {
      const key = JSON.stringify([req.handle, req.rate, req.t0Ms, req.t1Ms, req.stepMs, first?.t0Ms ?? null]);
      let group = this.batch.get(key);
      if (!group) {
        group = { req: { handle: req.handle, rate: req.rate, t0Ms: req.t0Ms, t1Ms: req.t1Ms, stepMs: req.stepMs }, first, members: [] };
        this.batch.set(key, group);
        if (this.batch.size === 1) queueMicrotask(() => this.flush());
      }
      group.members.push({ plots: req.plots, done: resolve });
    });
  }

  /**
   * Sends the requests queued so far (a queued flush then finds nothing). The chart grid calls
   * it once its charts have all asked, before they are drawn, so the worker reads while the
   * main thread builds the charts; otherwise the flush queued by the first request sends them.
   */
  flush(): void {
    if (this.batch.size === 0) return;
    const groups = [...this.batch.values()];
    this.batch = new Map();
    for (const g of groups) {
      const plots = g.members.flatMap((m) => m.plots);
      // Both asked now, the first part first: the engine answers a source's calls in order.
      const early = g.first ? this.fetcher({ ...g.req, ...g.first, plots }) : undefined;
      const all = this.fetcher({ ...g.req, plots });
      let offset = 0;
      for (const m of g.members) {
        const from = offset;
        const count = m.plots.length;
        offset += count;
        m.done({ first: early?.then((b) => sliceBlock(b, from, count)), whole: all.then((b) => sliceBlock(b, from, count)) });
      }
    }
  }

  /** The current entry of a chart for one source. */
  get(chartId: string, sourceId: string): SeriesEntry {
    return this.slots.get(`${chartId}|${sourceId}`)?.snapshot ?? EMPTY;
  }

  /** Monotonic per chart: bumps whenever any of its entries changes. */
  version(chartId: string): number {
    return this.versions.get(chartId) ?? 0;
  }

  subscribe(chartId: string, fn: () => void): () => void {
    let set = this.listeners.get(chartId);
    if (!set) this.listeners.set(chartId, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  /** Makes sure the visible window of `wish` is (or will be) in the cache. */
  want(chartId: string, sourceId: string, wish: SeriesWish): void {
    const key = `${chartId}|${sourceId}`;
    const specKey = JSON.stringify([wish.handle, wish.plots, wish.rate]);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { specKey, block: undefined, visible: undefined, error: undefined, inflight: false, pending: undefined, snapshot: EMPTY, askedEndMs: wish.bounds.endMs };
    }
    // Map order is recency order for the budget: most recently wanted last.
    this.slots.delete(key);
    this.slots.set(key, slot);
    if (slot.specKey !== specKey) {
      // A different question: drop the old answer so stale columns are never drawn.
      slot.specKey = specKey;
      slot.block = undefined;
      slot.error = undefined;
      this.publish(chartId, slot);
    }
    const need = neededWindow(wish.visible, wish.bounds, wish.anchorMs, wish.stepMs);
    slot.visible = need;
    // A followed archive grew into a block read when its end was earlier: that tail is read again.
    const stale = slot.block !== undefined && slot.block.t1Ms > slot.askedEndMs && wish.bounds.endMs > slot.askedEndMs;
    if (slot.block && covers(slot.block, need) && !stale) {
      // Back inside what is drawn while a read for elsewhere runs (End, then Home): an earlier
      // wish waiting for its turn is stale now, and the answer under way must not replace
      // this block (see send).
      slot.pending = undefined;
      return;
    }
    if (slot.error && !slot.inflight && slot.pending === undefined && slot.block === undefined && this.sameError(slot, wish)) return;
    if (slot.inflight) {
      slot.pending = wish;
      return;
    }
    this.send(chartId, key, slot, wish);
  }

  /**
   * True while a chart has data drawn for this source but not yet for `wish`'s window: being
   * read, or not asked for yet (the chart asks in its layout effect, after the grid renders).
   * The grid keeps showing the window it showed meanwhile (chart-grid.tsx), as Grafana keeps
   * a panel's series until the new query answers. False once an answer or an error came.
   */
  waiting(chartId: string, sourceId: string, wish: SeriesWish): boolean {
    const slot = this.slots.get(`${chartId}|${sourceId}`);
    if (!slot?.block || slot.specKey !== JSON.stringify([wish.handle, wish.plots, wish.rate])) return false;
    const need = neededWindow(wish.visible, wish.bounds, wish.anchorMs, wish.stepMs);
    if (covers(slot.block, need)) return false;
    if (slot.inflight) return true;
    const asked = slot.visible;
    return asked === undefined || asked.t0Ms !== need.t0Ms || asked.t1Ms !== need.t1Ms || asked.stepMs !== need.stepMs;
  }

  /** Forgets a chart (unmounted or removed): late answers are dropped. */
  drop(chartId: string): void {
    for (const key of [...this.slots.keys()]) if (key.startsWith(`${chartId}|`)) this.slots.delete(key);
    this.versions.delete(chartId);
  }

  private lastErrorWish = new WeakMap<Slot, string>();

  private sameError(slot: Slot, wish: SeriesWish): boolean {
    return this.lastErrorWish.get(slot) === JSON.stringify([wish.visible, wish.stepMs]);
  }

  private send(chartId: string, key: string, slot: Slot, wish: SeriesWish): void {
    // The first answer is only what is visible (the first chart sooner); padding comes with
    // the next request, once the user moves.
    const need = neededWindow(wish.visible, wish.bounds, wish.anchorMs, wish.stepMs);
    const win = slot.block ? paddedWindow(wish.visible, wish.bounds, wish.anchorMs, wish.stepMs) : need;
    // A chart with nothing drawn yet gets the end of a long window first (buffered-window.ts
    // firstTail): its legend and latest samples show while the rest is read.
    const first = slot.block ? undefined : firstTail(need);
    const specKey = slot.specKey;
    slot.askedEndMs = wish.bounds.endMs;
    slot.inflight = true;
    slot.pending = undefined;
    this.publish(chartId, slot);
    const answers = this.enqueue({ handle: wish.handle, plots: wish.plots, rate: wish.rate, ...win }, first);
    let whole = false;
    void answers.then((a) =>
      a.first?.then(
        (block) => {
          if (whole || this.slots.get(key) !== slot || slot.specKey !== specKey || slot.block) return;
          slot.block = block;
          this.publish(chartId, slot);
        },
        // Not lost: the whole window, asked right after over the same records, reports it.
        () => undefined,
      ),
    );
    answers.then((a) => a.whole).then(
      (block) => {
        whole = true;
        if (this.slots.get(key) !== slot || slot.specKey !== specKey) return;
        slot.error = undefined;
        // The chart moved back into the block it has while this was read: that block stays,
        // or the chart would be left with an answer for a window it no longer shows.
        const shown = slot.visible;
        if (slot.pending === undefined && slot.block && shown && covers(slot.block, shown) && !covers(block, shown)) return;
        slot.block = block;
        this.enforceBudget(slot);
      },
      (e: unknown) => {
        whole = true;
        if (this.slots.get(key) !== slot || slot.specKey !== specKey) return;
        slot.error = asEngineError(e, 'series');
        this.lastErrorWish.set(slot, JSON.stringify([wish.visible, wish.stepMs]));
      },
    ).finally(() => {
      if (this.slots.get(key) !== slot) return;
      slot.inflight = false;
      const next = slot.pending;
      slot.pending = undefined;
      this.publish(chartId, slot);
      if (next) this.want(chartId, key.slice(chartId.length + 1), next);
    });
  }

  private publish(chartId: string, slot: Slot): void {
    slot.snapshot = { block: slot.block, error: slot.error, loading: slot.inflight };
    this.versions.set(chartId, this.version(chartId) + 1);
    for (const fn of this.listeners.get(chartId) ?? []) fn();
  }
}

/** The part of a combined block that answers plots [from, from + count). */
export function sliceBlock(b: SeriesBlock, from: number, count: number): SeriesBlock {
  return {
    ...b,
    plots: b.plots.slice(from, from + count),
    columns: b.columns.filter((c) => c.plot >= from && c.plot < from + count).map((c) => ({ ...c, plot: c.plot - from })),
  };
}

/** Bytes a block holds in its typed arrays. */
export function blockBytes(b: SeriesBlock): number {
  return b.timestamps.byteLength + b.columns.reduce((n, c) => n + c.values.byteLength, 0);
}

/** `b` cut to the rows of `win` (copies, so the rows cut away are freed); `b` itself when nothing goes. */
export function trimBlock(b: SeriesBlock, win: Window): SeriesBlock {
  if (b.stepMs !== win.stepMs) return b;
  const ts = b.timestamps;
  let from = 0;
  while (from < ts.length && ts[from] < win.t0Ms - 1e-6) from++;
  let to = ts.length;
  while (to > from && ts[to - 1] > win.t1Ms + 1e-6) to--;
  if (from === 0 && to === ts.length) return b;
  return {
    ...b,
    t0Ms: Math.max(b.t0Ms, win.t0Ms),
    t1Ms: Math.min(b.t1Ms, win.t1Ms),
    timestamps: ts.slice(from, to),
    columns: b.columns.map((c) => ({ ...c, values: c.values.slice(from, to) })),
  };
}

/** The app's one cache. */
export const seriesCache = new SeriesCache();
