// Sources: every archive or host the user opened, with its status, progress and error. The
// engine handle and summary arrive when the open succeeds; a failed source keeps its error on
// screen and never disturbs the others (docs/design.md "Errors").
import type { ConnectionStatus, EngineError, SourceSummary } from '../../workers/engine-types';
import type { SourceEntry, SourceOrigin } from './model';
import type { SliceCreator } from './slice';

export interface SourcesSlice {
  /** Every source in the order opened. */
  readonly sources: readonly SourceEntry[];
  /** Numbering for source ids ("s1", "s2", …). */
  readonly sourceSerial: number;
  /** The source the metric browser shows and new charts draw from. */
  readonly currentSourceId: string | undefined;
  /** Derived-metric configurations the user loaded, by file name (each adds to every source's PMNS). */
  readonly derivedConfigs: readonly string[];

  /** The user asked to open something; returns the new source id. */
  beganOpening(origin: SourceOrigin, label: string): string;
  reportedProgress(id: string, phase: string, fraction: number): void;
  finishedOpening(id: string, summary: SourceSummary): void;
  failedOpening(id: string, error: EngineError): void;
  /** A live source's connection changed state. */
  connectionChanged(id: string, connection: ConnectionStatus): void;
  /** The user closed a source: its charts' plots stay, showing the source as closed. */
  closedSource(id: string): void;
  choseSource(id: string): void;
  /** Reading an open archive met a corrupt record (kept once: the first place met). */
  metDamage(id: string, error: EngineError): void;
  /** A source is dropped from the list altogether (the demo, replaced by what the user opened). */
  forgotSource(id: string): void;
  /** The user shifted an archive source in time (drawn at its own time + offsetMs). */
  shiftedSource(id: string, offsetMs: number): void;
  /** A followed archive grew to `endMs` (epoch ms), its archives now `archives` (a new one
   *  pmlogger started in a followed folder joins them): a window showing its end moves along. */
  grewSource(id: string, endMs: number, archives?: readonly string[]): void;
  /** Whether an archive source is read again as it grows (follow-archive.ts; SourceEntry.follow). */
  followChanged(id: string, follow: 'following' | 'snapshot' | undefined): void;
  /** A derived-metric configuration was loaded into the engine: metric lists are stale. */
  loadedDerivedConfig(file: string): void;
}

function patch(list: readonly SourceEntry[], id: string, change: Partial<SourceEntry>): SourceEntry[] {
  return list.map((s) => (s.id === id ? { ...s, ...change } : s));
}

export const createSourcesSlice: SliceCreator<SourcesSlice> = (set, get) => ({
  sources: [],
  sourceSerial: 0,
  currentSourceId: undefined,
  derivedConfigs: [],

  beganOpening(origin, label) {
    const serial = get().sourceSerial + 1;
    const id = `s${serial}`;
    set((s) => ({ sourceSerial: serial, sources: [...s.sources, { id, origin, label, status: 'opening' }] }));
    return id;
  },
  reportedProgress(id, phase, fraction) {
    set((s) => ({ sources: patch(s.sources, id, { progress: { phase, fraction } }) }));
  },
  finishedOpening(id, summary) {
    set((s) => ({
      sources: patch(s.sources, id, { status: 'ready', summary, handle: summary.handle, label: summary.name, progress: undefined, error: undefined }),
      currentSourceId: s.currentSourceId && s.sources.some((x) => x.id === s.currentSourceId && x.status === 'ready') ? s.currentSourceId : id,
    }));
    get().archiveBoundsChanged();
  },
  connectionChanged(id, connection) {
    set((s) => ({ sources: patch(s.sources, id, { connection }) }));
  },
  failedOpening(id, error) {
    set((s) => ({ sources: patch(s.sources, id, { status: 'failed', error, progress: undefined }) }));
  },
  metDamage(id, error) {
    if (get().sources.some((x) => x.id === id && x.damage === undefined)) set((s) => ({ sources: patch(s.sources, id, { damage: error }) }));
  },
  closedSource(id) {
    set((s) => ({
      sources: patch(s.sources, id, { status: 'closed', handle: undefined }),
      currentSourceId: s.currentSourceId === id ? s.sources.find((x) => x.id !== id && x.status === 'ready')?.id : s.currentSourceId,
    }));
    get().archiveBoundsChanged();
  },
  choseSource(id) {
    set({ currentSourceId: id });
    get().focusedSource();
  },
  forgotSource(id) {
    set((s) => ({
      sources: s.sources.filter((x) => x.id !== id),
      currentSourceId: s.currentSourceId === id ? s.sources.find((x) => x.id !== id && x.status === 'ready')?.id : s.currentSourceId,
    }));
    get().archiveBoundsChanged();
  },
  shiftedSource(id, offsetMs) {
    set((s) => ({ sources: patch(s.sources, id, { offsetMs: Number.isFinite(offsetMs) && offsetMs !== 0 ? offsetMs : undefined }) }));
    get().archiveBoundsChanged();
  },
  followChanged(id, follow) {
    set((s) => ({ sources: patch(s.sources, id, { follow }) }));
  },
  grewSource(id, endMs, archives) {
    const before = get();
    const src = before.sources.find((x) => x.id === id);
    const old = src?.summary;
    if (!src || !old || !(endMs > old.endMs)) return;
    // At the end: the window's right edge within an interval and a half of the old end (the
    // last grid point lies half an interval inside it, time-slice.ts clampEdge).
    const oldEnd = old.endMs + (src.offsetMs ?? 0);
    const atEnd = Number.isFinite(before.positionMs) && before.positionMs >= oldEnd - 1.5 * Math.max(before.intervalMs, 1) && before.currentSourceId === id;
    set((s) => ({ sources: patch(s.sources, id, { summary: { ...old, endMs, archives: archives ?? old.archives } }) }));
    get().archiveBoundsChanged();
    if (atEnd && before.playState !== 'backward') get().wentToEnd();
  },
  loadedDerivedConfig(file) {
    set((s) => ({ derivedConfigs: [...s.derivedConfigs, file] }));
  },
});

/** Ready archive sources. */
export function readyArchives(sources: readonly SourceEntry[]): SourceEntry[] {
  return sources.filter((s) => s.status === 'ready' && s.summary?.kind === 'archive');
}

/** An archive source's bounds as drawn: its own, moved by its time shift. */
export function shiftedBounds(s: SourceEntry): { startMs: number; endMs: number } | undefined {
  if (!s.summary) return undefined;
  const off = s.offsetMs ?? 0;
  return { startMs: s.summary.startMs + off, endMs: s.summary.endMs + off };
}

/** The union of the ready archives' time bounds as drawn (pmtime's absolute bounds), or undefined. */
export function archiveUnionBounds(sources: readonly SourceEntry[]): { startMs: number; endMs: number } | undefined {
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const s of readyArchives(sources)) {
    const b = shiftedBounds(s);
    if (!b) continue;
    startMs = Math.min(startMs, b.startMs);
    endMs = Math.max(endMs, b.endMs);
  }
  return Number.isFinite(startMs) ? { startMs, endMs } : undefined;
}
