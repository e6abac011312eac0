import { ExpiringCopies } from './expiring-copies.js';

describe('ExpiringCopies', () => {
  afterEach(() => jest.useRealTimers());

  function counted(): { read: () => Promise<number>; reads: () => number } {
    let n = 0;
    return { read: () => Promise.resolve(++n), reads: () => n };
  }

  it('answers its copy while fresh and reads again once it is not', async () => {
    jest.useFakeTimers({ now: 0 });
    const copies = new ExpiringCopies<number>(1_000);
    const source = counted();
    expect(await copies.get('a', source.read)).toBe(1);
    jest.setSystemTime(999);
    expect(await copies.get('a', source.read)).toBe(1);
    jest.setSystemTime(1_000);
    expect(await copies.get('a', source.read)).toBe(2);
    expect(source.reads()).toBe(2);
  });

  it('reads again a key it was told to forget, and keeps keys apart', async () => {
    const copies = new ExpiringCopies<number>(60_000);
    const source = counted();
    await copies.get('a', source.read);
    await copies.get('b', source.read);
    copies.forget('a');
    expect(await copies.get('a', source.read)).toBe(3);
    expect(await copies.get('b', source.read)).toBe(2);
  });

  it('does not keep what `keep` refuses', async () => {
    const copies = new ExpiringCopies<number | null>(60_000);
    let reads = 0;
    const read = () => Promise.resolve(++reads === 1 ? null : reads);
    expect(await copies.get('a', read, (v) => v !== null)).toBeNull();
    expect(await copies.get('a', read, (v) => v !== null)).toBe(2);
    expect(await copies.get('a', read, (v) => v !== null)).toBe(2);
  });

  it('starts afresh past its bound rather than growing', async () => {
    const copies = new ExpiringCopies<number>(60_000, 2);
    const source = counted();
    await copies.get('a', source.read);
    await copies.get('b', source.read);
    await copies.get('c', source.read); // full: the copies of a and b go
    expect(await copies.get('c', source.read)).toBe(3);
    expect(await copies.get('a', source.read)).toBe(4);
  });

  /** A read that answers when told to. */
  function held<V>(): {
    read: () => Promise<V>;
    reads: () => number;
    answer: (v: V) => void;
    fail: (e: Error) => void;
  } {
    const pending: Array<{ resolve: (v: V) => void; reject: (e: Error) => void }> = [];
    return {
      read: () => new Promise<V>((resolve, reject) => void pending.push({ resolve, reject })),
      reads: () => pending.length,
      answer: (v) => pending.shift()?.resolve(v),
      fail: (e) => pending.shift()?.reject(e),
    };
  }

  it('reads a key once however many ask while its read is on its way, and keeps that answer', async () => {
    const copies = new ExpiringCopies<number>(60_000);
    const source = held<number>();
    const asked = Array.from({ length: 20 }, () => copies.get('a', source.read));
    expect(source.reads()).toBe(1);
    source.answer(7);
    expect(await Promise.all(asked)).toEqual(Array(20).fill(7));
    expect(await copies.get('a', source.read)).toBe(7);
    expect(source.reads()).toBe(0); // the one read was answered; none started since
  });

  it('does not hand a read begun before `forget` to those who ask after it, nor keep it', async () => {
    const copies = new ExpiringCopies<number>(60_000);
    const source = held<number>();
    const before = copies.get('a', source.read);
    copies.forget('a');
    const after = copies.get('a', source.read);
    expect(source.reads()).toBe(2);
    source.answer(1); // the read begun before forget
    source.answer(2);
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(await copies.get('a', source.read)).toBe(2);
  });

  it('answers a failed read to all who shared it, and reads again for the next', async () => {
    const copies = new ExpiringCopies<number>(60_000);
    const source = held<number>();
    const asked = [copies.get('a', source.read), copies.get('a', source.read)];
    source.fail(new Error('database away'));
    for (const a of asked) await expect(a).rejects.toThrow('database away');
    const again = copies.get('a', source.read);
    expect(source.reads()).toBe(1);
    source.answer(3);
    expect(await again).toBe(3);
  });

  it('answers a read that throws before it begins as a rejection', async () => {
    const copies = new ExpiringCopies<number>(60_000);
    const read = (): Promise<number> => {
      throw new Error('no connection');
    };
    await expect(copies.get('a', read)).rejects.toThrow('no connection');
  });

  it('shares an answer `keep` refuses but does not keep it', async () => {
    const copies = new ExpiringCopies<number | null>(60_000);
    const source = held<number | null>();
    const asked = [
      copies.get('a', source.read, (v) => v !== null),
      copies.get('a', source.read, (v) => v !== null),
    ];
    source.answer(null);
    expect(await Promise.all(asked)).toEqual([null, null]);
    const again = copies.get('a', source.read, (v) => v !== null);
    expect(source.reads()).toBe(1);
    source.answer(4);
    expect(await again).toBe(4);
  });
});
