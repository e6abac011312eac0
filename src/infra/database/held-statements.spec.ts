import type { QueryResult } from 'pg';
import { HeldStatements } from './held-statements.js';

const result = (rows: object[]): QueryResult<object> => ({
  rows,
  command: 'SELECT',
  rowCount: rows.length,
  oid: 0,
  fields: [],
});

describe('HeldStatements', () => {
  it('hands over what it holds, in order, and holds nothing after', () => {
    const held = new HeldStatements();
    held.hold(['START TRANSACTION']);
    held.hold(['PREPARE a AS SELECT 1', 'EXECUTE a']);
    expect(held.size).toBe(3);
    expect(held.take().texts).toEqual(['START TRANSACTION', 'PREPARE a AS SELECT 1', 'EXECUTE a']);
    expect(held.size).toBe(0);
    expect(held.take().texts).toEqual([]);
  });

  it("answers a waiting statement with its own result, a kept plan's EXECUTE rather than its PREPARE", async () => {
    const held = new HeldStatements();
    held.hold(['START TRANSACTION']);
    const rows = held.holdAnswering(['PREPARE c AS UPDATE t SET x = 1 RETURNING x', 'EXECUTE c']);
    held.hold(['INSERT INTO log VALUES (1)']);
    const batch = held.take();
    batch.answered([result([]), result([]), result([{ x: 1 }]), result([]), result([])]);
    await expect(rows).resolves.toEqual([{ x: 1 }]);
  });

  it('fails whoever waits when the message fails or never goes', async () => {
    const held = new HeldStatements();
    const rows = held.holdAnswering(['UPDATE t SET x = 1 RETURNING x']);
    held.take().failed(new Error('CLAIM_LOST'));
    await expect(rows).rejects.toThrow('CLAIM_LOST');
  });

  it('leaves a later message to its own waiting callers', async () => {
    const held = new HeldStatements();
    const first = held.holdAnswering(['SELECT 1']);
    held.take().answered([result([{ n: 1 }])]);
    const second = held.holdAnswering(['SELECT 2']);
    held.take().answered([result([{ n: 2 }])]);
    await expect(first).resolves.toEqual([{ n: 1 }]);
    await expect(second).resolves.toEqual([{ n: 2 }]);
  });
});
