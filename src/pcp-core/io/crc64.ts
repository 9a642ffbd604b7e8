// CRC-64 of the xz container's checks (ECMA-182, reflected polynomial 0xC96C5795D7870F42,
// initial and final value all ones: CRC-64/XZ), checked over every decoded .xz block
// (xz-framed.ts). A 100 MB volume is checked in full, and in JavaScript the check cost a third
// of the decode (about 0.8 GB/s: two table loads per byte, as 64-bit values are two 32-bit
// halves). So it runs in a small WebAssembly function (slicing by 16: sixteen 64-bit table
// loads per 16 bytes, about 2 GB/s with the copy into its memory), assembled below; where
// WebAssembly cannot run (a page whose CSP refuses it, a process under ulimit -v), in
// JavaScript (slicing by 8).

const POLY_LO = 0xd7870f42;
const POLY_HI = 0xc96c5795;
/** Tables for slicing by `SLICES` bytes: T[k][b] is the CRC of byte b followed by k zero bytes. */
const SLICES = 16;

/** T[k * 256 + b], low and high halves (interleaved: [2i] low, [2i + 1] high). */
const TABLES = (() => {
  // Int32Array: the optimized loop then keeps every value in a machine word (a Uint32Array's
  // values above 2^31 are not small integers).
  const t = new Int32Array(SLICES * 256 * 2);
  for (let n = 0; n < 256; n++) {
    let l = n;
    let h = 0;
    for (let k = 0; k < 8; k++) {
      const carry = l & 1;
      l = ((l >>> 1) | ((h & 1) << 31)) >>> 0;
      h >>>= 1;
      if (carry) {
        l = (l ^ POLY_LO) >>> 0;
        h = (h ^ POLY_HI) >>> 0;
      }
    }
    t[2 * n] = l;
    t[2 * n + 1] = h;
  }
  for (let k = 1; k < SLICES; k++) {
    for (let n = 0; n < 256; n++) {
      const at = 2 * ((k - 1) * 256 + n);
      const pl = t[at] >>> 0;
      const ph = t[at + 1] >>> 0;
      // One more zero byte: shift right 8 and fold the byte shifted out.
      const x = 2 * (pl & 0xff);
      t[2 * (k * 256 + n)] = ((pl >>> 8) | (ph << 24)) ^ t[x];
      t[2 * (k * 256 + n) + 1] = (ph >>> 8) ^ t[x + 1];
    }
  }
  return t;
})();

/** The first 8 tables split in halves, for the JavaScript loop. */
const [LO, HI] = (() => {
  const lo = new Int32Array(8 * 256);
  const hi = new Int32Array(8 * 256);
  for (let i = 0; i < lo.length; i++) {
    lo[i] = TABLES[2 * i];
    hi[i] = TABLES[2 * i + 1];
  }
  return [lo, hi];
})();

/** Continues the CRC (as its two halves, not inverted) over bytes[from, to) in JavaScript. */
function updateJs(l: number, h: number, bytes: Uint8Array, from: number, to: number): [number, number] {
  let i = from;
  const fast = to - ((to - i) & 7);
  const lo = LO;
  const hi = HI;
  for (; i < fast; i += 8) {
    const a = (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) ^ l;
    const b = (bytes[i + 4] | (bytes[i + 5] << 8) | (bytes[i + 6] << 16) | (bytes[i + 7] << 24)) ^ h;
    l =
      lo[1792 + (a & 0xff)] ^ lo[1536 + ((a >>> 8) & 0xff)] ^ lo[1280 + ((a >>> 16) & 0xff)] ^ lo[1024 + (a >>> 24)] ^
      lo[768 + (b & 0xff)] ^ lo[512 + ((b >>> 8) & 0xff)] ^ lo[256 + ((b >>> 16) & 0xff)] ^ lo[b >>> 24];
    h =
      hi[1792 + (a & 0xff)] ^ hi[1536 + ((a >>> 8) & 0xff)] ^ hi[1280 + ((a >>> 16) & 0xff)] ^ hi[1024 + (a >>> 24)] ^
      hi[768 + (b & 0xff)] ^ hi[512 + ((b >>> 8) & 0xff)] ^ hi[256 + ((b >>> 16) & 0xff)] ^ hi[b >>> 24];
  }
  for (; i < to; i++) {
    const t = (l ^ bytes[i]) & 0xff;
    l = (l >>> 8) | (h << 24);
    h = h >>> 8;
    l ^= lo[t];
    h ^= hi[t];
  }
  return [l, h];
}

// The WebAssembly version's memory: the tables (SLICES × 256 little-endian 64-bit values),
// the CRC in progress, then the bytes to check, copied in BUFFER_SIZE at a time.
const W_TABLES = 0;
const W_STATE = SLICES * 256 * 8;
const W_BUFFER = W_STATE + 64;
const BUFFER_SIZE = 1 << 16;
const W_PAGES = Math.ceil((W_BUFFER + BUFFER_SIZE) / 65536);

/** Unsigned LEB128 (the WebAssembly binary format's integers). */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
}

/** Signed LEB128 of a 32-bit value. */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

/**
 * The module: `update(n)` continues the CRC at W_STATE over the n bytes at W_BUFFER; memory
 * exported as `memory`. WebAssembly 1.0 binary format, assembled here (the function in the
 * text format's words beside each line) rather than shipped as an opaque file.
 */
function crcModule(): Uint8Array<ArrayBuffer> {
  // Opcodes.
  const [I32_CONST, I64_CONST, GET, SET] = [0x41, 0x42, 0x20, 0x21];
  const [I32_AND, I32_ADD, I32_SHL, I32_SHR_U, I32_XOR, I32_GE_U, I32_WRAP] = [0x71, 0x6a, 0x74, 0x76, 0x73, 0x4f, 0xa7];
  const [I64_XOR, I64_SHR_U, I64_LOAD, I64_STORE, I32_LOAD8_U] = [0x85, 0x88, 0x29, 0x37, 0x2d];
  const [BLOCK, LOOP, BR, BR_IF, END, VOID] = [0x02, 0x03, 0x0c, 0x0d, 0x0b, 0x40];
  // Locals: the parameter n, then p, end, lo, hi (i32) and crc, x (i64).
  const [n, p, end, lo, hi, crc, x] = [0, 1, 2, 3, 4, 5, 6];
  const load64 = (offset: number): number[] => [I64_LOAD, 3, ...uleb(offset)];
  /** T[table][(v >>> 8 * k) & 0xff]: the byte's index times 8, then the load. */
  const lookup = (v: number, k: number, table: number): number[] => [
    GET, v, ...(k === 0 ? [I32_CONST, 3, I32_SHL] : [I32_CONST, ...sleb(8 * k - 3), I32_SHR_U]), I32_CONST, ...sleb(0x7f8), I32_AND,
    ...load64(W_TABLES + table * 2048),
  ];
  /** Eight bytes at p + offset (xored with the CRC first when `withCrc`), looked up in tables base + 7 … base. */
  const eight = (offset: number, withCrc: boolean, base: number, first: boolean): number[] => [
    GET, p, ...load64(offset), ...(withCrc ? [GET, crc, I64_XOR] : []), SET, x,  // x = load(p + offset) [^ crc]
    GET, x, I32_WRAP, SET, lo,                                                      // lo = (i32) x
    GET, x, I64_CONST, 32, I64_SHR_U, I32_WRAP, SET, hi,                            // hi = (i32) (x >> 32)
    ...lookup(lo, 0, base + 7), ...(first ? [] : [I64_XOR]),
    ...lookup(lo, 1, base + 6), I64_XOR,
    ...lookup(lo, 2, base + 5), I64_XOR,
    ...lookup(lo, 3, base + 4), I64_XOR,
    ...lookup(hi, 0, base + 3), I64_XOR,
    ...lookup(hi, 1, base + 2), I64_XOR,
    ...lookup(hi, 2, base + 1), I64_XOR,
    ...lookup(hi, 3, base), I64_XOR,
  ];
  const body = [
    I32_CONST, 0, ...load64(W_STATE), SET, crc,                                                 // crc = state
    I32_CONST, ...sleb(W_BUFFER), SET, p,                                                        // p = buffer
    GET, n, I32_CONST, ...sleb(-16), I32_AND, I32_CONST, ...sleb(W_BUFFER), I32_ADD, SET, end,   // end = p + (n & ~15)
    BLOCK, VOID, LOOP, VOID,                                                                     // while (p < end) {
    GET, p, GET, end, I32_GE_U, BR_IF, 1,
    ...eight(0, true, 8, true), ...eight(8, false, 0, false), SET, crc,                          //   crc = 16 lookups
    GET, p, I32_CONST, 16, I32_ADD, SET, p,                                                      //   p += 16
    BR, 0, END, END,                                                                             // }
    GET, n, I32_CONST, ...sleb(W_BUFFER), I32_ADD, SET, end,                                     // end = buffer + n
    BLOCK, VOID, LOOP, VOID,                                                                     // while (p < end) {
    GET, p, GET, end, I32_GE_U, BR_IF, 1,
    GET, crc, I32_WRAP, GET, p, I32_LOAD8_U, 0, 0, I32_XOR, I32_CONST, 3, I32_SHL,               //   crc = T0[(crc ^ *p) & 0xff]
    I32_CONST, ...sleb(0x7f8), I32_AND, ...load64(W_TABLES),
    GET, crc, I64_CONST, 8, I64_SHR_U, I64_XOR, SET, crc,                                        //         ^ (crc >> 8)
    GET, p, I32_CONST, 1, I32_ADD, SET, p,                                                       //   p++
    BR, 0, END, END,                                                                             // }
    I32_CONST, 0, GET, crc, I64_STORE, 3, ...uleb(W_STATE),                                      // state = crc
    END,
  ];
  const func = [2, 4, 0x7f, 2, 0x7e, ...body]; // locals: 4 × i32, 2 × i64
  const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
  const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [1, 0x60, 1, 0x7f, 0]), // type 0: (i32) → ()
    ...section(3, [1, 0]), // function 0 has type 0
    ...section(5, [1, 0, W_PAGES]), // one memory, W_PAGES pages
    ...section(7, [2, ...name('memory'), 2, 0, ...name('update'), 0, 0]),
    ...section(10, [1, ...uleb(func.length), ...func]),
  ]);
}

interface WasmCrc {
  readonly bytes: Uint8Array;
  readonly words: Int32Array;
  readonly update: (n: number) => void;
}

/** The WebAssembly version, compiled on first use; undefined where it cannot run. */
let wasm: WasmCrc | undefined | null = null;

function wasmCrc(): WasmCrc | undefined {
  if (wasm !== null) return wasm;
  wasm = undefined;
  // Little-endian only (every platform a browser runs on): the tables are written as words.
  if (typeof WebAssembly !== 'object' || new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) return wasm;
  let instance: WebAssembly.Instance;
  try {
    instance = new WebAssembly.Instance(new WebAssembly.Module(crcModule()));
  } catch (e) {
    // A CSP without 'wasm-unsafe-eval' refuses to compile; under a limit on address space
    // (ulimit -v) the memory's reservation fails: the JavaScript loop does the work.
    if (e instanceof WebAssembly.CompileError || e instanceof EvalError || e instanceof RangeError) return wasm;
    throw e;
  }
  const memory = instance.exports.memory as WebAssembly.Memory;
  const words = new Int32Array(memory.buffer);
  words.set(TABLES, W_TABLES >> 2);
  wasm = { bytes: new Uint8Array(memory.buffer), words, update: instance.exports.update as (n: number) => void };
  return wasm;
}

/** Which version checks on this thread (tests and benchmarks say it). */
export function crc64Engine(): 'webassembly' | 'javascript' {
  return wasmCrc() ? 'webassembly' : 'javascript';
}

/** A CRC-64/XZ in progress: `update` over bytes in order, then `value` (little-endian bytes). */
export class Crc64 {
  private lo = -1;
  private hi = -1;
  private readonly wasm: WasmCrc | undefined;

  /** `javascript`: never the WebAssembly version (for tests of the fallback). */
  constructor(javascript = false) {
    this.wasm = javascript ? undefined : wasmCrc();
  }

  update(bytes: Uint8Array, from = 0, to = bytes.length): void {
    const w = this.wasm;
    if (w === undefined || to - from < 64) {
      [this.lo, this.hi] = updateJs(this.lo, this.hi, bytes, from, to);
      return;
    }
    // One module instance for every Crc64 of this thread: the state goes in and out.
    const state = W_STATE >> 2;
    w.words[state] = this.lo;
    w.words[state + 1] = this.hi;
    for (let at = from; at < to; at += BUFFER_SIZE) {
      const n = Math.min(BUFFER_SIZE, to - at);
      w.bytes.set(bytes.subarray(at, at + n), W_BUFFER);
      w.update(n);
    }
    this.lo = w.words[state];
    this.hi = w.words[state + 1];
  }

  /** The check as xz stores it: 8 bytes, little-endian. */
  value(): Uint8Array {
    const l = ~this.lo >>> 0;
    const h = ~this.hi >>> 0;
    return Uint8Array.of(l & 0xff, (l >>> 8) & 0xff, (l >>> 16) & 0xff, l >>> 24, h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, h >>> 24);
  }
}
