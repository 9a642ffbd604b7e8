// The one way bytes enter pcp-core: a random-access, asynchronous source, shaped like Arrow's
// RandomAccessFile.readAt. Files, Blobs, HTTP Range URLs, memory and decompressed volumes all
// implement it; decoders fetch a block with `read` and then decode it synchronously.

export interface ByteSource {
  /** What to call this source in messages: a path, a file name or a URL. */
  readonly name: string;
  /** Total length in bytes (uncompressed, for a decompressing source). */
  readonly size: number;
  /**
   * Reads `length` bytes from `offset`. The result is shorter only when the range runs past
   * the end (empty at or beyond `size`); any other failure rejects with an Error naming the
   * source. The caller must not modify the returned bytes.
   */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Optional hint that [offset, offset+length) will be read soon. A source that can prepare
   * those bytes without occupying the caller's thread (decompression in another process)
   * starts doing so; others ignore it. Resolves when they are ready or preparing them failed:
   * failures surface on the read itself.
   */
  readAhead?(offset: number, length: number): Promise<void>;
  /**
   * Optional hint that a forward pass of reads from `offset`, of about `length` bytes
   * (Infinity: unknown), is about to begin (an archive just opened: replay starts at its first
   * record; a sequential replay of a window). A source that reads ahead starts now; others
   * ignore it. Failures surface on the reads themselves.
   */
  startPass?(offset: number, length: number): void;
  /**
   * Optional: `read`, answered in an ArrayBuffer of its own that no cache or other reader
   * holds, so the caller may keep views of it, hand it on or transfer it (an archive export
   * makes its .tar of views of the records read, with no copy). Sources whose reads are
   * views of what they hold (decompressed volumes, memory) leave it out.
   */
  readFresh?(offset: number, length: number): Promise<Uint8Array>;
  /** Releases handles or caches; reads after close fail. */
  close(): Promise<void>;
}
