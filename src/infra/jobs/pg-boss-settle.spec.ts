import PgBoss from 'pg-boss';
import { managerClass, reportUnsettledJobs } from './pg-boss-settle.js';

describe('settling jobs while the database is away', () => {
  it('finds pg-boss’s worker settling batches without awaiting them (the reason for the patch)', () => {
    // If pg-boss starts awaiting these, the patch is no longer needed; if it renames them, it no longer works.
    const source = managerClass().prototype.constructor.toString();
    expect(source).toMatch(/\n\s+this\.complete\(name, jobIds/);
    expect(source).toMatch(/\n\s+this\.fail\(name, jobIds, err\)/);
  });

  it('leaves no rejection unhandled, and still rejects for a caller that awaits', async () => {
    reportUnsettledJobs();
    reportUnsettledJobs(); // once only
    const failing = Object.create(managerClass().prototype) as {
      complete: (...args: unknown[]) => Promise<unknown>;
      db: unknown;
    };
    const down = Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' });
    failing.db = { executeSql: () => Promise.reject(down) };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      void failing.complete('queue', ['6f1c2d0e-3b4a-4c5d-9e8f-0a1b2c3d4e5f']); // as pg-boss calls it
      await expect(failing.complete('queue', ['6f1c2d0e-3b4a-4c5d-9e8f-0a1b2c3d4e5f'])).rejects.toBe(down);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('keeps complete and fail on the PgBoss object (it promotes the manager’s functions by name)', () => {
    reportUnsettledJobs();
    const boss = new PgBoss({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    expect(typeof boss.complete).toBe('function');
    expect(typeof boss.fail).toBe('function');
  });
});
