import { DB_POOL_SIZE, dataSourceOptions } from './data-source-options.js';

describe('dataSourceOptions', () => {
  const pool = (dataSourceOptions('postgres://u:p@127.0.0.1:5432/db') as { extra: Record<string, unknown> })
    .extra;

  it('keeps every connection the pool opens, so a rush after a quiet spell finds them warm', () => {
    // pg-pool closes an idle connection only while it holds more than `min`.
    expect(pool.max).toBe(DB_POOL_SIZE);
    expect(pool.min).toBe(pool.max);
  });

  it('gives up on a connection the server does not accept within 10 s', () => {
    expect(pool.connectionTimeoutMillis).toBe(10_000);
  });
});
