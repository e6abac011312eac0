import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, ValidateBy } from 'class-validator';
import { currencyExponent, hasAtMostDecimals, isCurrencyCode } from '#app/common/money.js';
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

/** The most decimals any currency has (ISO 4217's units of account, e.g. CLF). */
const MOST_CURRENCY_DECIMALS = 4;

/**
 * An amount in major units with no more decimals than the currency in the sibling field `currencyField`
 * has (2.50 GBP, 500 JPY, 1.250 KWD). Without a usable sibling (an update that keeps the currency) any
 * currency's most is let through here, and the service judges it against the stored currency.
 */
export function CurrencyDecimals(currencyField: string): PropertyDecorator {
  const placesFor = (object: object): { places: number; currency?: string } => {
    const currency = (object as Record<string, unknown>)[currencyField];
    return isCurrencyCode(currency)
      ? { places: currencyExponent(currency), currency }
      : { places: MOST_CURRENCY_DECIMALS };
  };
  return ValidateBy({
    name: 'currencyDecimals',
    constraints: [currencyField],
    validator: {
      validate: (value: unknown, args) =>
        typeof value !== 'number' || hasAtMostDecimals(value, placesFor(args?.object ?? {}).places),
      defaultMessage: (args) => {
        const { places, currency } = placesFor(args?.object ?? {});
        return `$property must have at most ${places} decimals${currency ? ` for ${currency}` : ''}`;
      },
    },
  });
}
