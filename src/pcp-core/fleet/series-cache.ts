// A bounded least-recently-used map, keyed by series id (a SHA-1 in hex): metadata of a
// series never changes (the id is a hash of it), so entries need no expiry, only a bound.
export class SeriesCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`cache size must be a positive integer, not ${maxEntries}`);
  }

  get(id: string): V | undefined {
    const v = this.entries.get(id);
    if (v !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as the newest.
      this.entries.delete(id);
      this.entries.set(id, v);
    }
    return v;
  }

  set(id: string, value: V): void {
    this.entries.delete(id);
    this.entries.set(id, value);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
