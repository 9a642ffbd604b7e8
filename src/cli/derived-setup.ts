// Derived metrics for the CLI commands (`-c CONFIG`, pminfo's and pmval's --derived): the
// configuration files are loaded as PCP tools load them — libpcp's initialisation first (the
// anonymous event metrics, then $PCP_DERIVED_CONFIG or $PCP_VAR_DIR/config/derived, or on a
// machine without the latter pmdash's own standard set, derived/standard.ts), then
// pmLoadDerivedConfig for each file — with libpcp's diagnostics on stderr, and the command's
// context is wrapped in a DerivedContext whose semantic errors reach stderr when a metric is
// first bound (derived-units-conversion.md §2.7–2.8). Commands reach it through
// derived-cli.ts, which loads it only when there are configurations to load.
import { defaultDerivedConfigPath, nodeDerivedConfigFs } from '../node/derived-config-fs';
import type { ArchiveSet } from '../pcp-core/archive/archive-set';
import { ArchiveContext } from '../pcp-core/context/archive-context';
import type { Context } from '../pcp-core/context/context';
import { loadDerivedConfig } from '../pcp-core/derived/config';
import { DerivedContext } from '../pcp-core/derived/derived-context';
import { DerivedRegistry } from '../pcp-core/derived/registry';
import { registerStandardDerived } from '../pcp-core/derived/standard';
import { isPmError, pmErrStr } from '../pcp-core/errors';
import type { PmId } from '../pcp-core/types';
import { UsageError } from './args';
import { wantsDerived } from './derived-cli';
import type { CommandIo } from './command';

/**
 * The registry of one command run, initialised as libpcp's __dminit does: what the process-wide
 * registry of a PCP tool is (a fresh one per run, so in-process runs stay independent).
 */
export function derivedRegistry(io: CommandIo, env: NodeJS.ProcessEnv = process.env): DerivedRegistry {
  const registry = new DerivedRegistry();
  registry.defaultConfig = (r) => {
    const path = defaultDerivedConfigPath(env);
    if (path !== undefined) io.stderr(loadDerivedConfig(r, path, nodeDerivedConfigFs, true).messages);
    else if (env.PCP_DERIVED_CONFIG === undefined) {
      // No PCP configuration on this machine: pmdash's own statement of PCP's standard set.
      for (const x of registerStandardDerived(r).refused) io.stderr(`pmdash: standard derived metric ${x.name}: ${x.message}\n`);
    }
  };
  registry.initialize();
  return registry;
}

/**
 * Loads `-c` configuration files; for each, its status: the number of metrics registered or
 * a negative errno (a path that could not be read). Diagnostics are printed as libpcp does.
 */
export function loadDerivedOptions(configs: readonly string[], io: CommandIo, registry: DerivedRegistry): number[] {
  return configs.map((c) => {
    const r = loadDerivedConfig(registry, c, nodeDerivedConfigFs);
    if (r.messages !== '') io.stderr(r.messages);
    return r.status;
  });
}

/** A context with the derived metrics of the registry; semantic errors go to stderr. */
export function withDerivedMetrics(ctx: Context, io: CommandIo, registry: DerivedRegistry): DerivedContext {
  return new DerivedContext(ctx, { registry, onMessage: (m) => io.stderr(m) });
}

/**
 * pmval/pmrep's --derived (pmGetOptions): a configuration that cannot be read is a usage error
 * ("pmLoadDerivedConfig failed: <reason>"). Without configurations, default or given, the
 * context is unchanged.
 */
export function applyDerivedConfig(ctx: Context, configs: readonly string[], io: CommandIo): Promise<Context> {
  if (!wantsDerived(configs)) return Promise.resolve(ctx);
  const registry = derivedRegistry(io);
  for (const status of loadDerivedOptions(configs, io, registry)) {
    if (status < 0) return Promise.reject(new UsageError(`pmLoadDerivedConfig failed: ${pmErrStr(status)}`));
  }
  return Promise.resolve(withDerivedMetrics(ctx, io, registry));
}

/**
 * pminfo's -c over an archive that a command has opened as an ArchiveSet: the configurations
 * are loaded (a path that cannot be read is reported and ignored, as pminfo does) and the
 * derived layer is put over a context on the set. Undefined without configurations.
 */
export async function derivedOverArchiveSet(set: ArchiveSet, configs: readonly string[], io: CommandIo): Promise<DerivedContext | undefined> {
  if (!wantsDerived(configs)) return undefined;
  const registry = derivedRegistry(io);
  for (const status of loadDerivedOptions(configs, io, registry)) {
    if (status < 0) io.stderr(`pmdash: derived configuration(s) error: ${pmErrStr(status)}\n`);
  }
  // The set stays the command's to close: the context is only a view over it.
  return withDerivedMetrics(await ArchiveContext.fromSet(set), io, registry);
}

/** pminfo -T for a derived metric: its help text, else its one-line text (configuration attributes). */
export async function derivedHelpText(ctx: DerivedContext, pmid: PmId): Promise<string> {
  try {
    const text = (await ctx.lookupText({ pmid }, 'help')).replace(/\n+$/, '');
    return text === '' ? 'Help: <empty entry>\n' : `Help:\n${text}\n`;
  } catch (e) {
    if (isPmError(e)) return `Full Help: Error: ${e.message}\n`;
    throw e;
  }
}
