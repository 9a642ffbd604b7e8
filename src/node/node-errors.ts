// Node's system errors (code 'ENOENT', errno -2, ...) as PmError with libpcp's negative errno
// code and glibc's text, naming the path, so a missing or unreadable file reads the same
// whichever platform adapter met it. Any other Error passes unchanged.
import { constants } from 'node:os';
import { PmError } from '../pcp-core/errors';

const ERRNO: Readonly<Record<string, number>> = constants.errno;

export function toPmError(e: unknown, path: string): Error {
  if (e instanceof PmError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code in ERRNO) return new PmError(-ERRNO[code], undefined, path);
  return e instanceof Error ? e : new Error(`${path}: ${String(e)}`);
}
