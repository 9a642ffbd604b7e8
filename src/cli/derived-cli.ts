// Derived metrics for the CLI commands, loaded only when used: the derived-metric machinery
// (parser, binder, evaluator: about a quarter of what `values` loads) is in derived-setup.ts,
// and a command with no configuration at all (PCP_DERIVED_CONFIG set empty, no -c) never
// loads it.
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import type { Context } from '../pcp-core/context/context';
import type { DerivedContext } from '../pcp-core/derived/derived-context';
import type { PmId } from '../pcp-core/types';
import type { CommandIo } from './command';

/**
 * Whether a command needs the derived layer: `-c` files, or a default configuration —
 * libpcp's ($PCP_DERIVED_CONFIG, else $PCP_VAR_DIR/config/derived), which every PCP tool
 * loads, or where neither exists pmdash's standard set. Only an empty $PCP_DERIVED_CONFIG
 * means none.
 */
export function wantsDerived(configs: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  return configs.length > 0 || env.PCP_DERIVED_CONFIG !== '';
}

/** pmval/pmrep's --derived: the context with the metrics of `configs` (derived-setup.ts). */
export async function applyDerivedConfig(ctx: Context, configs: readonly string[], io: CommandIo): Promise<Context> {
  if (!wantsDerived(configs)) return ctx;
  return (await import('./derived-setup')).applyDerivedConfig(ctx, configs, io);
}

/** pminfo's -c over an opened ArchiveSet (derived-setup.ts); undefined without configurations (neither `-c` nor a default one). */
export async function derivedOverArchiveSet(set: ArchiveSet, configs: readonly string[], io: CommandIo): Promise<DerivedContext | undefined> {
  if (!wantsDerived(configs)) return undefined;
  return (await import('./derived-setup')).derivedOverArchiveSet(set, configs, io);
}

/** pminfo -T for a derived metric (derived-setup.ts). */
export async function derivedHelpText(ctx: DerivedContext, pmid: PmId): Promise<string> {
  return (await import('./derived-setup')).derivedHelpText(ctx, pmid);
}
