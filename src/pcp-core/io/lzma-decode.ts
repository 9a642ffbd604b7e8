// `xz -dc` on an archive file stored as `.lzma` holding the legacy lzma-alone container
// (archive-format.md §1.2; `.lzma` files in the xz container go through xz-source.ts). The
// decoder is the lzma1 package (an ES-module TypeScript LZMA decoder, about 10 MB/s). The
// `lzma` package (LZMA-JS) is not used: its file assigns `this.LZMA` at top level, which fails
// once Vite bundles it as an ES module for the worker, and it is several times slower.
import { decompress } from 'lzma1';
import { PM_ERR_LOGREC, PmError } from '../errors';

const CUT_SHORT = new Error('compressed data cut short');

/**
 * `data` seen as one byte longer, where reading the extra byte throws. The decoder does not
 * stop at the end of its input (it decodes 0xFF bytes from there on, and a cut file then grows
 * its output without bound until the engine runs out of memory); this makes it fail as xz does
 * ("Unexpected end of input"). The decoder uses only indexing, `length` and `subarray`.
 */
function guarded(data: Uint8Array): Uint8Array {
  const n = data.length;
  return new Proxy(data, {
    get(target, key) {
      if (key === 'length') return n + 1;
      if (key === String(n)) throw CUT_SHORT;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Decompresses lzma-alone `data`; `name` is for messages. */
export function decodeLzmaAlone(name: string, data: Uint8Array): Uint8Array {
  const corrupt = (detail: string): PmError => new PmError(PM_ERR_LOGREC, undefined, `${name} (lzma: ${detail})`);
  // xz recognises the container by its header: properties byte (lc, lp, pb) below 225.
  if (data.length < 13 || data[0] >= 225) throw corrupt('file format not recognized');
  try {
    return decompress(guarded(data));
  } catch (e) {
    throw corrupt(e instanceof Error ? e.message : 'decoder failed');
  }
}
