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
});
