import 'reflect-metadata';
import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import type { AppException } from '#app/common/errors/app.exception.js';
import { narrowerFor } from '#app/common/validation/narrower-bodies.js';
import { createValidationPipe, validationOptions } from '#app/common/validation/validation.pipe.js';
import { GatewayOneConfirmationDto, GatewayOneOrderDto } from './order.dto.js';

const BODY: ArgumentMetadata = { type: 'body', metatype: GatewayOneOrderDto, data: undefined };
const narrowing = createValidationPipe();
/** Nest's own pipe with the same options: every body validated as the whole DTO, as before narrowing. */
const whole = new ValidationPipe(validationOptions());

/** What a client would see: the body the controller gets, or the refusal's answer. */
async function outcome(pipe: ValidationPipe, body: unknown): Promise<unknown> {
  try {
    return { passed: { ...(await pipe.transform(body, BODY)) } };
  } catch (error) {
    const { status, code, detail, errors } = error as AppException;
    return { refused: { status, code, detail, errors } };
  }
}

const anyValue = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
);
const FIELDS = ['confirmation_only', 'order_id', 'payment_id', 'result_code', 'status'] as const;
const confirmationShaped = fc.record(Object.fromEntries(FIELDS.map((f) => [f, anyValue])), {
  requiredKeys: [],
});

describe("endpoint 3's confirmation bodies, validated as the five fields they can have", () => {
  it('are validated as GatewayOneConfirmationDto, and any other body as the whole order', () => {
    expect(narrowerFor(GatewayOneOrderDto, { confirmation_only: true, order_id: 'x' })).toBe(
      GatewayOneConfirmationDto,
    );
    expect(narrowerFor(GatewayOneOrderDto, { confirmation_only: true, quantity: 2 })).toBeUndefined();
  });

  it('pass or are refused exactly as when validated as the whole order (same body, same errors)', async () => {
    const fixed: unknown[] = [
      { confirmation_only: true, order_id: '0b6b7d5e-8e2a-4c57-9d7e-0d6f1c2f3a4b' },
      { confirmation_only: true, payment_id: 'A'.repeat(100), result_code: '000.100.110', status: 'paid' },
      { confirmation_only: 'true', order_id: 5, payment_id: 'x'.repeat(101), status: null },
      { confirmation_only: null, order_id: null },
      { confirmation_only: true, order_id: 'x', quantity: 'two' },
      { confirmation_only: true, order_id: 'x', sneaky: 1 },
      {},
    ];
    for (const body of fixed) expect(await outcome(narrowing, body)).toEqual(await outcome(whole, body));
    await fc.assert(
      fc.asyncProperty(confirmationShaped, async (body) => {
        expect(await outcome(narrowing, body)).toEqual(await outcome(whole, body));
      }),
      { seed: 20261126, numRuns: 400 },
    );
  });
});
