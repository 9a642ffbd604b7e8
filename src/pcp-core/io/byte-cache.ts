// A least-recently-used cache of byte blocks bounded by their total size: decoded xz blocks
// (xz-source.ts) and HTTP blocks (http-source.ts). Reads near each other hit the same block;
// memory stays bounded however many volumes are open. The newest `keep` entries are always
// kept, even when they alone exceed the budget (a 100 MB single-block volume), so a read can
// be served — and, with keep = 2, replay across the seam of two such volumes (the record
// before a time in one, the one after in the next) does not decode them again and again.

/** `T`: the entries' kind of bytes (decoded chunks are kept as ChunkBytes: piece-bytes.ts). */
export class ByteCache<T extends { readonly length: number } = Uint8Array> {
  /** Map order is recency order: first = least recently used. */
  private readonly entries = new Map<string, T>();
  private total = 0;

  constructor(
    private budget: number,
    private readonly keep = 1,
  ) {}

  get budgetBytes(): number {
    return this.budget;
  }

  /** How many of the newest entries are kept whatever their size. */
  get keepCount(): number {
    return this.keep;
  }

  /** Changes the budget, dropping the least recently used entries beyond a smaller one. */
  resize(budgetBytes: number): void {
    this.budget = budgetBytes;
    for (const [oldest, bytes] of this.entries) {
      if (this.total <= this.budget || this.entries.size <= this.keep) break;
      this.entries.delete(oldest);
      this.total -= bytes.length;
    }
  }

  /** Bytes held now. */
  get size(): number {
    return this.total;
  }

  /** The entry, without making it the most recently used. */
  peek(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** Whether there is an entry for `key` (its recency unchanged). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.delete(key);
    this.entries.set(key, value);
    this.total += value.length;
    for (const [oldest, bytes] of this.entries) {
      if (this.total <= this.budget || oldest === key || this.entries.size <= this.keep) break;
      this.entries.delete(oldest);
      this.total -= bytes.length;
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.length;
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** Drops every entry whose key starts with `prefix` (a closed source's blocks). */
  deletePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }
}

let nextOwner = 0;

/** A key prefix unique to one source, for its entries in a shared cache. */
export function cacheOwner(kind: string): string {
  return `${kind}#${nextOwner++}:`;
}
