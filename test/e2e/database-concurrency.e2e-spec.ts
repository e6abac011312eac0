import { Pool } from 'pg';

describe('the database under concurrent connections', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 10 });
  });
  afterAll(async () => {
    await pool.end();
  });

  it('answers each parameterised query with its own SQL while other connections run transactions', async () => {
    const failures: string[] = [];
    const work: Array<Promise<void>> = [];
    for (let k = 0; k < 40; k++) {
      work.push(
        (async () => {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            const r = await client.query<{ x: number }>('SELECT $1::int + $2::int + $3::int AS x', [k, 1, 1]);
            if (r.rows[0]?.x !== k + 2) failures.push(`transaction ${k}: ${JSON.stringify(r.rows)}`);
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        })(),
      );
      for (let i = 0; i < 10; i++) {
        const n = k * 100 + i;
        work.push(
          pool
            .query<{ a: number }>('SELECT $1::int AS a', [n])
            .then((r) => {
              if (r.rows[0]?.a !== n) failures.push(`query ${n}: ${JSON.stringify(r.rows)}`);
            })
            .catch((e: unknown) => {
              failures.push(`query ${n}: ${String(e)}`);
            }),
        );
      }
    }
    await Promise.all(work);
    expect(failures).toEqual([]);
  });
});
