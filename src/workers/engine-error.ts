// Converts anything thrown inside the engine into a plain EngineError before it crosses the
// worker boundary: Comlink would keep only an Error's message, losing the PCP code and the
// context (file, offset, metric) the user needs to see (docs/design.md "Errors").
import { isPmError, pmErrSymbol } from '../pcp-core/errors';
import type { EngineError } from './engine-types';

export function toEngineError(e: unknown, fallbackContext = ''): EngineError {
  if (isEngineError(e)) return e;
  if (isPmError(e)) {
    const detail = 'detail' in e && typeof e.detail === 'string' && e.detail ? ` (${e.detail})` : '';
    return {
      code: pmErrSymbol(e.code) ?? `E${-e.code}`,
      message: e.message + detail,
      context: e.context || fallbackContext,
    };
  }
  if (e instanceof SyntaxError) return { code: 'EINVAL', message: e.message, context: fallbackContext };
  if (e instanceof Error) return { code: 'EINTERNAL', message: `${e.name}: ${e.message}`, context: fallbackContext };
  return { code: 'EINTERNAL', message: String(e), context: fallbackContext };
}

/** True when a value that came back over Comlink is an EngineError object. */
export function isEngineError(v: unknown): v is EngineError {
  return typeof v === 'object' && v !== null && !(v instanceof Error) && 'code' in v && typeof v.code === 'string' && 'message' in v && 'context' in v;
}

/**
 * Runs an engine call and turns any failure into a rejection carrying a plain EngineError
 * (structured-clonable), never a bare Error.
 */
export async function boundary<T>(context: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    // Comlink structured-clones a thrown plain object; an Error would arrive as its message only.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw toEngineError(e, context);
  }
}
