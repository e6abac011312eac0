/**
 * An instance's copies of what a hot path would otherwise read on every request (a site's rules, a raffle's
 * entry rules), each trusted for `ttlMs` from when its read began. One read per key at a time: whoever asks
 * while a key's read is on its way shares that read's answer, so a copy that expires under a rush is read
 * once, not by every request in flight. `forget` drops one (its owner changed it), and a read already on its
 * way then neither answers newcomers nor is kept; past `max` copies it starts afresh, so memory stays
 * bounded whatever the keys.
 */
export class ExpiringCopies<V> {
  private readonly copies = new Map<string, { at: number; value: V }>();
  private readonly reading = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  /**
   * The copy of `key` while it is fresh, else the answer of the read on its way, else what `read` answers
   * (kept unless the first reader's `keep` says no).
   */
  get(key: string, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const copy = this.copies.get(key);
    if (copy && Date.now() - copy.at < this.ttlMs) return Promise.resolve(copy.value);
    return this.reading.get(key) ?? this.readAndKeep(key, read, keep);
  }

  forget(key: string): void {
    this.copies.delete(key);
    this.reading.delete(key);
  }

  private readAndKeep(key: string, read: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    const at = Date.now();
    const reading = (async () => read())().then(
      (value) => {
        if (this.reading.get(key) !== reading) return value; // forgotten meanwhile: answer it, keep nothing
        this.reading.delete(key);
        if (keep(value)) {
          if (this.copies.size >= this.max) this.copies.clear();
          this.copies.set(key, { at, value });
        }
        return value;
      },
      (error: unknown) => {
        if (this.reading.get(key) === reading) this.reading.delete(key);
        throw error;
      },
    );
    this.reading.set(key, reading);
    return reading;
  }
}
