/**
 * An instance's copies of what a hot path would otherwise read on every request (a site's rules, a raffle's
 * entry rules), each trusted for `ttlMs` from when its read began. `forget` drops one (its owner changed
 * it); past `max` copies it starts afresh, so memory stays bounded whatever the keys.
 */
export class ExpiringCopies<V> {
  private readonly copies = new Map<string, { at: number; value: V }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  /** The copy of `key` while it is fresh, else what `read` answers (kept unless `keep` says no). */
  async get(key: string, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const copy = this.copies.get(key);
    if (copy && Date.now() - copy.at < this.ttlMs) return copy.value;
    const at = Date.now();
    const value = await read();
    if (!keep(value)) return value;
    if (this.copies.size >= this.max) this.copies.clear();
    this.copies.set(key, { at, value });
    return value;
  }

  forget(key: string): void {
    this.copies.delete(key);
  }
}
