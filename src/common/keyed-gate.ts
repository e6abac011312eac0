/**
 * At most `width` tasks at a time per key; the rest wait their turn in order of arrival, holding nothing.
 * A finishing task hands its place straight to the next in line, so a busy key never lets a newcomer jump
 * the queue. What a task holds (a pooled connection) it takes after its turn comes, not while it waits.
 */
interface Lane {
  running: number;
  waiting: Array<() => void>;
}

export class KeyedGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly width: number) {
    if (!Number.isInteger(width) || width < 1)
      throw new RangeError(`a gate's width must be ≥ 1, not ${width}`);
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const lane = await this.enter(key);
    try {
      return await task();
    } finally {
      this.leave(key, lane);
    }
  }

  /** What a key has running and waiting (the unit tests read it; an idle key holds nothing). */
  load(key: string): { running: number; waiting: number } {
    const lane = this.lanes.get(key);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  /** What all keys have running and waiting together (read when metrics are scraped: one pass over the keys). */
  totals(): { running: number; waiting: number } {
    let running = 0;
    let waiting = 0;
    for (const lane of this.lanes.values()) {
      running += lane.running;
      waiting += lane.waiting.length;
    }
    return { running, waiting };
  }

  private async enter(key: string): Promise<Lane> {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { running: 0, waiting: [] }));
    if (lane.running < this.width) lane.running++;
    else await new Promise<void>((resolve) => lane.waiting.push(resolve));
    return lane;
  }

  private leave(key: string, lane: Lane): void {
    const next = lane.waiting.shift();
    if (next)
      next(); // its place passes on: `running` stays as it is
    else if (--lane.running === 0) this.lanes.delete(key);
  }
}
