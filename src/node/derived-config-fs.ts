// The file system as pmLoadDerivedConfig sees it, for the derived-metric configuration loader
// in pcp-core (derived/config.ts): stat following symlinks, whole-file reads, and directory
// entries in readdir(3) order (not sorted), errors as negative errno values. Also where
// libpcp looks by default: $PCP_DERIVED_CONFIG, else $PCP_VAR_DIR/config/derived.
import { existsSync, opendirSync, readFileSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import type { DerivedConfigFs } from '../pcp-core/derived/config';

const errnoOf = (e: unknown): number => {
  const code = (e as { code?: unknown } | null)?.code;
  const errno = typeof code === 'string' ? (constants.errno as Record<string, number | undefined>)[code] : undefined;
  if (errno !== undefined) return -errno;
  throw e;
};

export const nodeDerivedConfigFs: DerivedConfigFs = {
  stat(path) {
    try {
      const s = statSync(path);
      return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    } catch (e) {
      return errnoOf(e);
    }
  },
  readFile(path) {
    try {
      return readFileSync(path, 'utf8');
    } catch (e) {
      return errnoOf(e);
    }
  },
  readDir(path) {
    try {
      const dir = opendirSync(path);
      const out: string[] = [];
      try {
        for (let d = dir.readSync(); d !== null; d = dir.readSync()) out.push(d.name);
      } finally {
        dir.closeSync();
      }
      return out;
    } catch (e) {
      return errnoOf(e);
    }
  },
};

/** $PCP_VAR_DIR from the environment, else from /etc/pcp.conf (or $PCP_CONF), else /var/lib/pcp. */
export function pcpVarDir(env: NodeJS.ProcessEnv): string {
  if (env.PCP_VAR_DIR) return env.PCP_VAR_DIR;
  try {
    const conf = readFileSync(env.PCP_CONF ?? '/etc/pcp.conf', 'utf8');
    const m = /^PCP_VAR_DIR=(.*)$/m.exec(conf);
    if (m?.[1]) return m[1].trim();
  } catch (e) {
    errnoOf(e);
  }
  return '/var/lib/pcp';
}

/**
 * What libpcp loads when it first initialises derived metrics: nothing when
 * $PCP_DERIVED_CONFIG is empty, that list when it is set, else $PCP_VAR_DIR/config/derived if
 * it exists. (Errors in these are ignored, as libpcp's recovering load does.)
 */
export function defaultDerivedConfigPath(env: NodeJS.ProcessEnv): string | undefined {
  const v = env.PCP_DERIVED_CONFIG;
  if (v !== undefined) return v === '' ? undefined : v;
  const path = `${pcpVarDir(env)}/config/derived`;
  return existsSync(path) ? path : undefined;
}
