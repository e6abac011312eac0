/**
 * Money is integer minor units inside the service; major units ("12.10") only at the edges (DESIGN §6).
 * A minor unit is the currency's own (ISO 4217): a hundredth of a pound, a whole yen, a thousandth of a
 * dinar, the same unit the gateways charge in, so every conversion goes through the currency. Conversions
 * go through decimal text, never through floating-point arithmetic, so "12.10" is 1210 and not
 * 1209.9999999999998.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** The exact decimal text of a finite number or numeric string, e.g. 12.1 → "12.1". */
function decimalText(value: number | string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite amount`);
    return Object.is(value, -0) ? '0' : String(value);
  }
  return value.trim();
}

/**
 * `value` × 10^`places` as an exact bigint; RangeError when `value` has more than `places` decimals
 * (other than trailing zeros) or is not a plain decimal (exponent forms are refused: such magnitudes
 * are never valid amounts or percentages here).
 */
export function scaleDecimal(value: number | string, places: number): bigint {
  const match = DECIMAL.exec(decimalText(value));
  if (!match) throw new RangeError(`${String(value)} is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > places) throw new RangeError(`${String(value)} has more than ${places} decimals`);
  const scaled = BigInt(whole + trimmed.padEnd(places, '0'));
  return sign ? -scaled : scaled;
}

/** Whether `value` is written with at most `places` decimals (trailing zeros aside). */
export function hasAtMostDecimals(value: number | string, places: number): boolean {
  try {
    scaleDecimal(value, places);
    return true;
  } catch {
    return false;
  }
}

/** numerator / denominator rounded half away from zero (half-up for amounts) to a whole number. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const rounded = (2n * abs + denominator) / (2n * denominator);
  return negative ? -rounded : rounded;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code as the runtime's ICU data knows it ("GBP", "EUR"); upper case only. */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value) && CURRENCIES.has(value);
}

// --- Currency-aware conversions at the gateway edge (minor units ↔ major-unit text) ---

export class MoneyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyError';
  }
}

/** ISO 4217 currencies whose minor unit is not the usual hundredth. */
const EXPONENTS: Readonly<Record<string, number>> = {
  // No minor unit.
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // Thousandths.
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // Ten-thousandths (units of account).
  CLF: 4,
  UYW: 4,
};

/** The currency code, upper-cased, or a MoneyError when it is not three letters. */
export function normalizeCurrency(currency: string): string {
  if (!/^[A-Za-z]{3}$/.test(currency)) throw new MoneyError(`"${currency}" is not a currency code`);
  return currency.toUpperCase();
}

/** Digits after the decimal point in the currency's major unit (2 unless ISO 4217 says otherwise). */
export function currencyExponent(currency: string): number {
  return EXPONENTS[normalizeCurrency(currency)] ?? 2;
}

/** 1210 GBP → "12.10"; 1000 JPY → "1000"; 1234 KWD → "1.234". Negative or fractional amounts are refused. */
export function minorToMajorString(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new MoneyError(`${String(minor)} is not a non-negative whole number of minor units`);
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** 1210 GBP → 12.1, 500 JPY → 500: the major-units number the API shows, parsed from the exact text. */
export function minorToMajor(minor: number, currency: string): number {
  return Number(minorToMajorString(minor, currency));
}

/** Money as e-mails and descriptions show it: 999 GBP → "9.99 GBP", 500 JPY → "500 JPY". */
export function formatMoney(minor: number, currency: string): string {
  return `${minorToMajorString(minor, currency)} ${normalizeCurrency(currency)}`;
}

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * "12.10" GBP → 1210, "12.1" → 1210, "0.05" → 5, 12.1 (a JSON number) → 1210. Refuses signs, exponents
 * ("1e3"), more decimals than the currency has ("12.101" GBP), and anything beyond a safe integer, rather
 * than round: an amount that cannot be represented exactly is a client or gateway error.
 */
export function majorToMinor(amount: string | number, currency: string): number {
  const exponent = currencyExponent(currency);
  if (typeof amount === 'number' && !Number.isFinite(amount))
    throw new MoneyError(`${String(amount)} is not an amount`);
  // A number's shortest round-trip text: 12.1 → "12.1", 0.1 + 0.2 → "0.30000000000000004" (refused).
  const text = typeof amount === 'number' ? String(amount) : amount;
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) throw new MoneyError(`"${text}" is not a plain decimal amount`);
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > exponent)
    throw new MoneyError(`"${text}" has more than ${exponent} decimal places for ${currency.toUpperCase()}`);
  const minor = Number((whole + fraction.padEnd(exponent, '0')).replace(/^0+(?=\d)/, ''));
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`"${text}" is too large`);
  return minor;
}
