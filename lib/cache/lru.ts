// A small bounded map that forgets the least recently used entry first. Map keeps insertion order,
// so a hit is moved to the end and the first key is always the oldest. Optionally bounded by weight
// too (bytes, say): entries are forgotten, oldest first, until the total fits.

export interface LruWeight<V> {
  max: number;
  of: (value: V) => number;
}

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private totalWeight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly weight?: LruWeight<V>,
  ) {
    if (!(maxEntries >= 1)) throw new RangeError("LruCache needs room for at least one entry");
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** A value heavier than the whole weight bound is not kept. */
  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weight?.of(value) ?? 0;
    if (this.weight && weight > this.weight.max) return;
    this.entries.set(key, value);
    this.totalWeight += weight;
    while (this.entries.size > this.maxEntries || (this.weight && this.totalWeight > this.weight.max)) {
      this.delete(this.entries.keys().next().value as K);
    }
  }

  delete(key: K): void {
    if (!this.entries.has(key)) return;
    if (this.weight) this.totalWeight -= this.weight.of(this.entries.get(key) as V);
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }
}
