// The argument checks every ByteSource.read shares (byte-source.ts): whole, non-negative
// offsets and lengths, and no reads after close. A bad call is a caller bug, so it throws a
// plain RangeError/Error naming the source rather than a PmError.

export function checkRead(name: string, offset: number, length: number, closed: boolean): void {
  if (closed) throw new Error(`${name}: read after close`);
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new RangeError(`${name}: bad read(${offset}, ${length})`);
  }
}
