// A POSIX ustar archive of in-memory files: how the browser hands over the three files of an
// exported PCP archive (B.meta, B.index, B.0) as one download that `tar xf` unpacks. Each
// file is a 512-byte header (name, mode, size and mtime in octal, checksum, "ustar" magic)
// followed by its bytes padded to 512; two zero blocks end the archive (POSIX.1-1988 ustar,
// as GNU tar reads it). Names longer than 100 bytes are split into the ustar prefix field.
const BLOCK = 512;
const utf8 = new TextEncoder();

export interface TarEntry {
  readonly name: string;
  /** The file's bytes, whole or in pieces (a large file need not be joined first). */
  readonly bytes: Uint8Array<ArrayBuffer> | readonly Uint8Array<ArrayBuffer>[];
  /** Modification time, seconds since the epoch. */
  readonly mtimeSec: number;
}

function putString(h: Uint8Array, at: number, size: number, text: string): void {
  const b = utf8.encode(text);
  if (b.length > size) throw new Error(`tar: "${text}" does not fit in ${size} bytes`);
  h.set(b, at);
}

/** An octal number in a field of `size` bytes: digits, then NUL. */
function putOctal(h: Uint8Array, at: number, size: number, value: number): void {
  const digits = Math.trunc(value).toString(8).padStart(size - 1, '0');
  if (digits.length > size - 1) throw new Error(`tar: ${value} does not fit in a ${size}-byte field`);
  putString(h, at, size, digits);
}

/** Splits a path into ustar's prefix (≤ 155 bytes) and name (≤ 100 bytes) at a '/'. */
function splitName(path: string): [prefix: string, name: string] {
  if (utf8.encode(path).length <= 100) return ['', path];
  for (let i = path.indexOf('/'); i > 0; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (utf8.encode(prefix).length <= 155 && utf8.encode(name).length <= 100) return [prefix, name];
  }
  throw new Error(`tar: the path "${path}" is too long for a ustar header`);
}

function sizeOf(e: TarEntry): number {
  return e.bytes instanceof Uint8Array ? e.bytes.length : e.bytes.reduce((n, p) => n + p.length, 0);
}

function header(e: TarEntry): Uint8Array<ArrayBuffer> {
  const h = new Uint8Array(BLOCK);
  const [prefix, name] = splitName(e.name);
  putString(h, 0, 100, name);
  putOctal(h, 100, 8, 0o644);
  putOctal(h, 108, 8, 0);
  putOctal(h, 116, 8, 0);
  putOctal(h, 124, 12, sizeOf(e));
  putOctal(h, 136, 12, e.mtimeSec);
  h.fill(0x20, 148, 156); // the checksum counts its own field as blanks
  h[156] = 0x30; // '0': a regular file
  putString(h, 257, 6, 'ustar');
  putString(h, 263, 2, '00');
  putString(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  putString(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/**
 * The tar archive of `entries` as pieces to be joined by whoever consumes them (a Blob takes
 * them as they are): headers, padding and the end marker are new; each file's bytes are the
 * caller's own arrays, never copied, so a 70 MB export is not written twice.
 */
export function tarParts(entries: readonly TarEntry[]): Uint8Array<ArrayBuffer>[] {
  const out: Uint8Array<ArrayBuffer>[] = [];
  for (const e of entries) {
    out.push(header(e));
    const size = sizeOf(e);
    for (const part of e.bytes instanceof Uint8Array ? [e.bytes] : e.bytes) if (part.length > 0) out.push(part);
    const pad = Math.ceil(size / BLOCK) * BLOCK - size;
    if (pad > 0) out.push(new Uint8Array(pad));
  }
  out.push(new Uint8Array(2 * BLOCK));
  return out;
}

/** The tar archive of `entries`, in order, in one array. */
export function tarFiles(entries: readonly TarEntry[]): Uint8Array {
  const parts = tarParts(entries);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Bytes of a tar archive given as parts. */
export function tarSize(parts: readonly Uint8Array[]): number {
  return parts.reduce((n, p) => n + p.length, 0);
}
