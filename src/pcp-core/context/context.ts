// The one Context interface (PMAPI's context): an archive set or a live pmcd behind the same
// lookups, replay modes and fetch. Derived metrics and fetchgroups are layered on top of any
// Context and are themselves Contexts. Everything is asynchronous because a live context
// answers over the network and an archive context reads data volumes lazily.
import type { Desc, InDom, InstanceList, FetchRun, LabelSet, PmId, ProfileChange, Result, TextKind, Timestamp } from '../types';

/** pmSetMode modes, with libpcp's codes. LIVE is the only mode of a live context. */
export const PM_MODE_LIVE = 0;
export const PM_MODE_INTERP = 1;
export const PM_MODE_FORW = 2;
export const PM_MODE_BACK = 3;
export type ReplayMode = typeof PM_MODE_LIVE | typeof PM_MODE_INTERP | typeof PM_MODE_FORW | typeof PM_MODE_BACK;

/** Where a context's metrics come from. */
export type ContextSource =
  | {
      readonly kind: 'archive';
      /** The names the context was opened with (comma-separated list elements). */
      readonly names: readonly string[];
      readonly hostname: string;
      /** POSIX TZ string from the label of the earliest archive, e.g. "AEST-10". */
      readonly timezone: string;
      /** Olson name from a v3 label without the leading ':', or '' (v2). */
      readonly zoneinfo: string;
      /** Label start of the earliest archive. */
      readonly start: Timestamp;
    }
  | {
      readonly kind: 'live';
      /** host[:port] or a bridge URL, as given. */
      readonly target: string;
      /** pmcd.hostname (the target when pmcd does not say). */
      readonly hostname: string;
      /** pmcd.timezone, a POSIX TZ string, e.g. "UTC" or "AEST-10". */
      readonly timezone: string;
      /** pmcd.zoneinfo without the leading ':', e.g. "Etc/UTC", or ''. */
      readonly zoneinfo: string;
    };

/** PMNS child entry (pmGetChildrenStatus). */
export interface PmnsChild {
  readonly name: string;
  readonly leaf: boolean;
}

// The vocabulary below lives in types.ts, beside the other PMAPI types, so that archive/,
// replay/ and pdu/ can use it without importing this layer above them.
export { PM_LABEL_CLUSTER, PM_LABEL_COMPOUND, PM_LABEL_CONTEXT, PM_LABEL_DOMAIN, PM_LABEL_INDOM, PM_LABEL_INSTANCES, PM_LABEL_ITEM, PM_LABEL_OPTIONAL } from '../types';
export type { Label, LabelSet, ProfileChange, TextKind } from '../types';

export interface Context {
  readonly source: ContextSource;

  /** pmLookupName: a pmid per name, or a negative PCP error code for that name. */
  lookupNames(names: readonly string[]): Promise<Array<PmId | number>>;
  /** pmNameAll: every name of a pmid (PM_ERR_PMID when none). */
  nameAll(id: PmId): Promise<string[]>;
  /** pmGetChildrenStatus: the children of a non-leaf node; '' is the root. */
  children(name: string): Promise<PmnsChild[]>;
  /** pmTraversePMNS: every leaf name at or below `name`, in PMNS order. */
  traverse(name: string): Promise<string[]>;

  /** pmLookupDescs: a descriptor per pmid, or a negative PCP error code for that pmid. */
  lookupDescs(ids: readonly PmId[]): Promise<Array<Desc | number>>;
  /**
   * pmGetInDom (live) / pmGetInDomArchive (archive, `at` undefined: every instance ever seen)
   * / instances as of `at` for an archive (the latest observation at or before it).
   */
  getInDom(id: InDom, at?: Timestamp): Promise<InstanceList>;
  /** pmLookupText / pmLookupInDomText; rejects with PM_ERR_TEXT when there is none. */
  lookupText(target: { readonly pmid: PmId } | { readonly indom: InDom }, kind: TextKind): Promise<string>;
  /** Label sets of one level (PM_LABEL_*), for its identifier (domain, indom, pmid; ignored for context). */
  lookupLabels(level: number, ident: number): Promise<LabelSet[]>;

  /**
   * pmSetMode. `origin` undefined keeps the current position. `deltaNs` is the INTERP step
   * (negative replays backwards); FORW and BACK ignore it.
   */
  setMode(mode: ReplayMode, origin?: Timestamp, deltaNs?: bigint): void;
  /** pmAddProfile / pmDelProfile. */
  changeProfile(change: ProfileChange): void;
  /** pmFetch: rejects with PmError (PM_ERR_EOL at either end of an archive, ...). */
  fetch(ids: readonly PmId[]): Promise<Result>;
  /**
   * Optional (no PMAPI equivalent): pmFetch answered at once when the values are at hand, as
   * they are for nearly every sample of an archive replay; else the promise `fetch` gives.
   * Throws (or rejects with) what `fetch` rejects with. A replay loop calling this pays no
   * promise and no microtask per sample (values-sampler.ts).
   */
  fetchEager?(ids: readonly PmId[]): Result | Promise<Result>;
  /**
   * Optional (no PMAPI equivalent): after an INTERP fetch of an archive answered at once, up
   * to `max` more fetches of the same `ids` made as one run into `run` (FetchRun: the value
   * sets' shape once, the values as numbers), each exactly the fetch `fetch` would make, the
   * origin moved on past them; for as long as no record must be read and only the values
   * change. Returns the run's count; 0 when no run can be made (then fetch one by one).
   */
  fetchRun?(ids: readonly PmId[], max: number, run: FetchRun): number;
  /**
   * Optional hint (no PMAPI equivalent): a pmSetMode to `at` and a fetch will follow soon, so
   * an archive context may start reading there (interp-grid.ts, stepped replay). Changes no
   * state that a fetch can observe.
   */
  prefetch?(at: Timestamp): void;
  /**
   * Optional hint (no PMAPI equivalent): a sequential replay from `from` to `to` follows (one
   * pmSetMode, then fetch after fetch), so an archive context may start reading forwards from
   * there at once (interp-grid.ts). Changes no state that a fetch can observe.
   */
  prefetchPass?(from: Timestamp, to: Timestamp): void;
  /**
   * Optional hint (no PMAPI equivalent): the client is idle, so bytes and records kept only to
   * make the next reads cheaper may go (the view is drawn; memory budgets, io/README.md).
   * Changes no state that a fetch can observe.
   */
  releaseMemory?(): void;

  /** pmDestroyContext. */
  close(): Promise<void>;
}
