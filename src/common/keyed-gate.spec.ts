import { KeyedGate } from './keyed-gate.js';

/** A task that finishes when told to, recording when it started. */
function task(log: string[], name: string): { run: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('KeyedGate', () => {
  it('runs at most `width` tasks of a key at once, the rest in order of arrival', async () => {
    const gate = new KeyedGate(2);
    const log: string[] = [];
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((n) => task(log, n));
    const results = tasks.map((t) => gate.run('raffle', t.run));
    await settle();
    expect(log).toEqual(['a', 'b']);
    expect(gate.load('raffle')).toEqual({ running: 2, waiting: 3 });
    tasks[1].finish();
    await settle();
    expect(log).toEqual(['a', 'b', 'c']);
    tasks[0].finish();
    tasks[2].finish();
    await settle();
    expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
    tasks[3].finish();
    tasks[4].finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(gate.load('raffle')).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps keys apart', async () => {
    const gate = new KeyedGate(1);
    const log: string[] = [];
    const one = task(log, 'one');
    const other = task(log, 'other');
    const a = gate.run('r1', one.run);
    const b = gate.run('r2', other.run);
    await settle();
    expect(log).toEqual(['one', 'other']);
    one.finish();
    other.finish();
    await Promise.all([a, b]);
  });

  it('counts what all keys run and hold waiting together, and nothing once they are done', async () => {
    const gate = new KeyedGate(1);
    const log: string[] = [];
    const tasks = ['a1', 'a2', 'a3', 'b1', 'b2'].map((n) => task(log, n));
    const results = tasks.map((t) => gate.run(t === tasks[3] || t === tasks[4] ? 'b' : 'a', t.run));
    await settle();
    expect(gate.totals()).toEqual({ running: 2, waiting: 3 });
    tasks[0].finish();
    tasks[3].finish();
    await settle();
    expect(gate.totals()).toEqual({ running: 2, waiting: 1 });
    for (const t of tasks) t.finish();
    await Promise.all(results);
    expect(gate.totals()).toEqual({ running: 0, waiting: 0 });
  });

  it('passes the turn on when a task fails, and answers the failure to its caller', async () => {
    const gate = new KeyedGate(1);
    const failing = gate.run('r', () => Promise.reject(new Error('refused')));
    const next = gate.run('r', () => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('refused');
    expect(await next).toBe('next');
    expect(gate.load('r')).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a width below one', () => {
    expect(() => new KeyedGate(0)).toThrow(RangeError);
  });
});
