// The global registry of derived metrics (pmRegisterDerived, pmRegisterDerivedMetric,
// derived-units-conversion.md §2.6–2.9): names, parsed expressions, PMIDs in the dynamic
// domain 511 allocated in registration order, help text from configuration attributes.
// Syntax is checked here; semantics only when a context binds a metric (DerivedContext).
// Every context created afterwards sees every registration, also later ones.
import type { Expr } from './ast';
import { formatRegisterError } from './messages';
import { parseExpression } from './parser';
import { DYNAMIC_PMID_DOMAIN, pmid, pmidCluster, pmidDomain, pmidItem } from '../types';
import type { PmId } from '../types';

export interface DerivedDefinition {
  readonly name: string;
  readonly pmid: PmId;
  /** The expression text as registered. */
  readonly text: string;
  readonly expr: Expr;
  /** Anonymous metrics (event.flags, event.missed) are always valid and never reported. */
  readonly anon: boolean;
  oneline: string | null;
  helptext: string | null;
}

/** Registration outcome: the definition, or where and why the text was refused. */
export type RegisterResult =
  | { readonly ok: true; readonly definition: DerivedDefinition }
  | { readonly ok: false; readonly position: number; readonly message: string | null };

export type AttributeResult = 'ok' | 'not-defined' | 'unknown-attribute' | 'duplicate';

/** pmGetDerivedControl's unlimited. */
export const DM_UNLIMITED = -1;

/**
 * A derived metric PMID: domain 511, cluster bit 2048 clear (that bit marks derived values
 * logged in archives) and item ≠ 0 (item 0 marks a dynamic PMNS root).
 */
export function isDerivedPmid(id: PmId): boolean {
  return pmidDomain(id) === DYNAMIC_PMID_DOMAIN && (pmidCluster(id) & 2048) === 0 && pmidItem(id) !== 0;
}

/** A PMID derived metrics answer: a global one (isDerivedPmid) or a context's own (top bit set). */
export function isAnyDerivedPmid(id: PmId): boolean {
  return isDerivedPmid(id) || id >= 0x80000000;
}

export class DerivedRegistry {
  private readonly defs: DerivedDefinition[] = [];
  private readonly byName = new Map<string, DerivedDefinition>();
  private lastPmid: PmId | undefined;
  private initialized = false;
  /** PCP_DERIVED_GLOBAL_LIMIT: most non-anonymous metrics allowed, −1 for no limit. */
  limit = DM_UNLIMITED;
  /**
   * What initialize() loads after the anonymous metrics: libpcp's default configuration
   * ($PCP_DERIVED_CONFIG or $PCP_VAR_DIR/config/derived), set by the platform layer.
   */
  defaultConfig: ((registry: DerivedRegistry) => void) | undefined;

  /** Every definition in registration order (contexts append the ones they have not seen). */
  get definitions(): readonly DerivedDefinition[] {
    return this.defs;
  }

  find(name: string): DerivedDefinition | undefined {
    return this.byName.get(name);
  }

  /**
   * libpcp's one-time initialisation (__dminit), done when the first context is created or a
   * configuration is loaded: the anonymous metrics of event-record unpacking, so user metrics
   * usually start at 511.0.3.
   */
  initialize(): void {
    if (this.initialized) return;
    this.initialized = true;
    const flags = this.register('event.flags', 'anon(PM_TYPE_U32)', true);
    if (flags.ok) {
      flags.definition.oneline = 'Flags for event records';
      flags.definition.helptext = 'An anonymous derived metric that is used to encode the event flags\nassociated with event records.   See pmUnpackEventRecords(3).';
    }
    const missed = this.register('event.missed', 'anon(PM_TYPE_U32)', true);
    if (missed.ok) {
      missed.definition.oneline = 'Count of missed event records';
      missed.definition.helptext =
        'An anonymous derived metric that is used to encode the number of\nevent records missed because either the PMDA could not keep up\nor the PMAPI client did not collect the event records fast\nenough.  See pmUnpackEventRecords(3).';
    }
    this.defaultConfig?.(this);
  }

  /** pmRegisterDerived: names are not validated here (configuration files do that). */
  register(name: string, text: string, anon = false): RegisterResult {
    const anonCount = this.defs.filter((d) => d.anon).length;
    if (this.limit !== DM_UNLIMITED && this.defs.length - anonCount >= this.limit) return { ok: false, position: 0, message: 'Too many global derived metrics' };
    if (this.byName.has(name)) return { ok: false, position: 0, message: 'Duplicate global derived metric name' };
    const parsed = parseExpression(text);
    if (!parsed.ok) return { ok: false, position: parsed.error.position, message: parsed.error.message };
    let id: PmId;
    if (this.lastPmid === undefined) id = pmid(DYNAMIC_PMID_DOMAIN, 0, 1);
    else {
      const cluster = pmidCluster(this.lastPmid);
      const item = pmidItem(this.lastPmid);
      if (item < 1023) id = pmid(DYNAMIC_PMID_DOMAIN, cluster, item + 1);
      else if (cluster < 2047) id = pmid(DYNAMIC_PMID_DOMAIN, cluster + 1, 1);
      else return { ok: false, position: 0, message: 'global PMID space exhausted' };
    }
    this.lastPmid = id;
    const definition: DerivedDefinition = { name, pmid: id, text, expr: parsed.expr, anon, oneline: null, helptext: null };
    this.defs.push(definition);
    this.byName.set(name, definition);
    return { ok: true, definition };
  }

  /** pmRegisterDerivedMetric: 0, or −1 and libpcp's message (format A). */
  registerMetric(name: string, text: string): { readonly status: 0 } | { readonly status: -1; readonly message: string } {
    const r = this.register(name, text);
    if (r.ok) return { status: 0 };
    return { status: -1, message: formatRegisterError(name, text, r.position, r.message) };
  }

  /** A configuration file's `name(attr) = value` (oneline or helptext, once each). */
  setAttribute(name: string, attribute: string, value: string): AttributeResult {
    const d = this.byName.get(name);
    if (d === undefined) return 'not-defined';
    if (attribute === 'oneline') {
      if (d.oneline !== null) return 'duplicate';
      d.oneline = value;
      return 'ok';
    }
    if (attribute === 'helptext') {
      if (d.helptext !== null) return 'duplicate';
      d.helptext = value;
      return 'ok';
    }
    return 'unknown-attribute';
  }
}

/** The process-wide registry, as libpcp's: what pmRegisterDerived and -c files fill. */
export const globalDerivedRegistry = new DerivedRegistry();
