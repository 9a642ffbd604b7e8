// The one Context interface (PMAPI's context): an archive set or a live pmcd behind the same
// lookups, replay modes and fetch. Derived metrics and fetchgroups are layered on top of any
// Context and are themselves Contexts. Everything is asynchronous because a live context
// answers over the network and an archive context reads data volumes lazily.
import type { Desc, InDom, InstanceList, PmId, Result, Timestamp } from '../types';

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

/** pmLookupText / pmLookupInDomText selectors. */
export type TextKind = 'oneline' | 'help';

/** Label hierarchy levels (PM_LABEL_*), with libpcp's codes. */
export const PM_LABEL_CONTEXT = 1;
export const PM_LABEL_DOMAIN = 2;
export const PM_LABEL_INDOM = 4;
export const PM_LABEL_CLUSTER = 8;
export const PM_LABEL_ITEM = 16;
export const PM_LABEL_INSTANCES = 32;
export const PM_LABEL_COMPOUND = 0x40;
export const PM_LABEL_OPTIONAL = 0x80;

export interface Label {
  readonly name: string;
  /** JSON value text: strings keep their quotes. */
  readonly value: string;
  readonly flags: number;
}

/** One pmLabelSet: the JSON object text and its parsed entries. */
export interface LabelSet {
  /** Instance id for PM_LABEL_INSTANCES sets, else PM_IN_NULL. */
  readonly inst: number;
  readonly json: string;
  readonly labels: readonly Label[];
}

/** An instance profile entry: pmAddProfile / pmDelProfile for one indom (or all). */
export type ProfileChange =
  | { readonly op: 'add'; readonly indom: InDom | null; readonly instances?: readonly number[] }
  | { readonly op: 'delete'; readonly indom: InDom | null; readonly instances?: readonly number[] };

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
   * Optional hint (no PMAPI equivalent): a pmSetMode to `at` and a fetch will follow soon, so
   * an archive context may start reading there (interp-grid.ts, stepped replay). Changes no
   * state that a fetch can observe.
   */
  prefetch?(at: Timestamp): void;

  /** pmDestroyContext. */
  close(): Promise<void>;
}
