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
}

function patch(list: readonly SourceEntry[], id: string, change: Partial<SourceEntry>): SourceEntry[] {
  return list.map((s) => (s.id === id ? { ...s, ...change } : s));
}

export const createSourcesSlice: SliceCreator<SourcesSlice> = (set, get) => ({
  sources: [],
  sourceSerial: 0,
  currentSourceId: undefined,

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
});

/** Ready archive sources. */
export function readyArchives(sources: readonly SourceEntry[]): SourceEntry[] {
  return sources.filter((s) => s.status === 'ready' && s.summary?.kind === 'archive');
}

/** The union of the ready archives' time bounds (pmtime's absolute bounds), or undefined. */
export function archiveUnionBounds(sources: readonly SourceEntry[]): { startMs: number; endMs: number } | undefined {
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const s of readyArchives(sources)) {
    if (!s.summary) continue;
    startMs = Math.min(startMs, s.summary.startMs);
    endMs = Math.max(endMs, s.summary.endMs);
  }
  return Number.isFinite(startMs) ? { startMs, endMs } : undefined;
}
