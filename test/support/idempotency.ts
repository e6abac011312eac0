import { randomUUID } from 'node:crypto';
import type { Response, Test } from 'supertest';

/**
 * Sends the request `send` makes twice under one new `Idempotency-Key`, as a client retrying after a timeout
 * would: both answer `status`, and the second is the first replayed (DESIGN §6). Answers the first.
 */
export async function sentTwice(send: () => Test, status: number): Promise<Response> {
  const key = randomUUID();
  const first = await send().set('Idempotency-Key', key).expect(status);
  const again = await send().set('Idempotency-Key', key).expect(status);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(first.body);
  return first;
}
