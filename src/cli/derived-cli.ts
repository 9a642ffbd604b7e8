// Derived metrics for the CLI commands, loaded only when used: the derived-metric machinery
// (parser, binder, evaluator: about a quarter of what `values` loads) is in derived-setup.ts,
// and a command without configurations never loads it, which is most runs' start-up time.
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import type { Context } from '../pcp-core/context/context';
import type { DerivedContext } from '../pcp-core/derived/derived-context';
import type { PmId } from '../pcp-core/types';
import type { CommandIo } from './command';

/** pmval/pmrep's --derived: the context with the metrics of `configs` (derived-setup.ts). */
export async function applyDerivedConfig(ctx: Context, configs: readonly string[], io: CommandIo): Promise<Context> {
  if (configs.length === 0) return ctx;
  return (await import('./derived-setup')).applyDerivedConfig(ctx, configs, io);
}

/** pminfo's -c over an opened ArchiveSet (derived-setup.ts); undefined without configurations. */
export async function derivedOverArchiveSet(set: ArchiveSet, configs: readonly string[], io: CommandIo): Promise<DerivedContext | undefined> {
  if (configs.length === 0) return undefined;
  return (await import('./derived-setup')).derivedOverArchiveSet(set, configs, io);
}

/** pminfo -T for a derived metric (derived-setup.ts). */
export async function derivedHelpText(ctx: DerivedContext, pmid: PmId): Promise<string> {
  return (await import('./derived-setup')).derivedHelpText(ctx, pmid);
}
