import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, ValidateBy } from 'class-validator';
import { hasAtMostDecimals, isCurrencyCode } from '#app/common/money.js';
import { presence, takesNull } from './fields.js';

/** An ISO 4217 currency code, upper case ("GBP"); codes the runtime does not know are refused. */
export function Currency(
  o: { required?: boolean; nullable?: boolean; description?: string } = {},
): PropertyDecorator {
  return applyDecorators(
    presence(o),
    IsString(),
    ValidateBy({
      name: 'isCurrencyCode',
      validator: {
        validate: (value: unknown) => isCurrencyCode(value),
        defaultMessage: () => '$property must be an ISO 4217 currency code in capitals, e.g. GBP',
      },
    }),
    ApiProperty({
      type: String,
      required: !!o.required,
      nullable: takesNull(o) || undefined,
      pattern: '^[A-Z]{3}$',
      minLength: 3,
      maxLength: 3,
      example: 'GBP',
      description: o.description ?? 'ISO 4217 code, capitals.',
    }),
  );
}

/**
 * At most `places` decimals, judged on the number's exact decimal text (so 12.345 is refused and
 * 12.1 is not), for amounts in major units and percentages. Add beside `Num(...)`.
 */
export function MaxDecimals(places: number): PropertyDecorator {
  return ValidateBy({
    name: 'maxDecimals',
    constraints: [places],
    validator: {
      validate: (value: unknown) => typeof value !== 'number' || hasAtMostDecimals(value, places),
      defaultMessage: () => `$property must have at most ${places} decimals`,
    },
  });
}
