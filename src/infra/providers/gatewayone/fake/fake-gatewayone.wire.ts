import { createHash } from 'node:crypto';
import { majorToMinor, minorToMajorString } from '#app/common/money.js';
import { escapeHtml, page } from '#app/infra/providers/fake-support/fake-gateway.js';
import { classifyResultCode } from '#app/infra/providers/gatewayone/gatewayone.rules.js';

// What the fake gatewayone says: its JSON shapes, result codes and pages.

export interface FakeCheckout {
  id: string;
  amount: string;
  currency: string;
  merchantTransactionId?: string;
  customParameters: Record<string, string>;
  shopperResultUrl?: string;
  createRegistration: boolean;
  /** `DB` (debit) or `PA` (pre-authorisation; 0.00 with a registration checks the card alone). */
  paymentType?: string;
  /** A merchant-initiated charge of a stored card: no hosted form, no checkout. */
  registrationCharge?: boolean;
  createdAt: Date;
  /** `000.200.000` (pending) until completed. */
  resultCode: string;
  paymentId?: string;
  registrationId?: string;
  completedAt?: Date;
  /** Refunds made (declined ones are answered, not kept), with the reference each was sent under. */
  refunds: { id: string; amount: string; resultCode: string; merchantTransactionId?: string }[];
}

export const SUCCESS_CODE = '000.100.110';
export const DECLINE_CODE = '800.100.151';
export const PENDING_CODE = '000.200.000';
export const INVALID_CODE = '200.300.404';
export const NOT_FOUND_CODE = '700.400.580';

const DESCRIPTIONS: Record<string, string> = {
  '000.000.100': 'successful request',
  '000.100.110': "Request successfully processed in 'Merchant in Integrator Test Mode'",
  '000.200.000': 'transaction pending',
  '000.200.100': 'successfully created checkout',
  '000.400.000': 'Transaction succeeded (please review manually due to fraud suspicion)',
  '200.300.404': 'invalid or missing parameter',
  '700.400.200': 'cannot refund (refund volume exceeded or tx reversed or invalid workflow)',
  '700.400.580': 'cannot find transaction',
  '800.100.151': 'transaction declined (invalid card)',
  '800.900.300': 'invalid authentication information',
  '800.900.100': 'sender authorization failed',
};

export const result = (code: string) => ({ code, description: DESCRIPTIONS[code] ?? 'sandbox result' });
export const stamp = (date = new Date()): string =>
  date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '+0000');

/** The hosted page where a checkout is paid or declined. */
export const payUrl = (baseUrl: string, checkoutId: string): string =>
  `${baseUrl.replace(/\/+$/, '')}/pay/${encodeURIComponent(checkoutId)}`;

/** The widget script (and its integrity hash) for a checkout: it turns the merchant's form into a link. */
export function widgetScript(url: string): string {
  return `(function(){var u=${JSON.stringify(url)};document.querySelectorAll('form.paymentWidgets').forEach(function(f){var a=document.createElement('a');a.href=u;a.textContent='Pay in the gatewayone sandbox';f.replaceWith(a);});})();\n`;
}
export const integrityOf = (script: string): string =>
  `sha384-${createHash('sha384').update(script).digest('base64')}`;

export function paymentJson(checkout: FakeCheckout): Record<string, unknown> {
  return {
    id: checkout.paymentId,
    paymentType: checkout.paymentType ?? 'DB',
    paymentBrand: 'VISA',
    amount: checkout.amount,
    currency: checkout.currency,
    descriptor: 'sandbox',
    merchantTransactionId: checkout.merchantTransactionId,
    result: result(checkout.resultCode),
    ...(checkout.registrationId ? { registrationId: checkout.registrationId } : {}),
    customParameters: checkout.customParameters,
    ...(checkout.registrationCharge
      ? { standingInstruction: { mode: 'REPEATED', type: 'UNSCHEDULED', source: 'MIT' } }
      : { ndc: checkout.id }),
    timestamp: stamp(checkout.completedAt),
  };
}

export function openCheckoutJson(checkout: FakeCheckout): Record<string, unknown> {
  return {
    paymentType: 'DB',
    amount: checkout.amount,
    currency: checkout.currency,
    merchantTransactionId: checkout.merchantTransactionId,
    result: result(PENDING_CODE),
    customParameters: checkout.customParameters,
    ndc: checkout.id,
    timestamp: stamp(checkout.createdAt),
  };
}

/** A refund as the query lists it: a transaction of its own (`RF`) referring to the payment. */
export function refundJson(
  checkout: FakeCheckout,
  refund: FakeCheckout['refunds'][number],
): Record<string, unknown> {
  return {
    id: refund.id,
    paymentType: 'RF',
    referencedId: checkout.paymentId,
    amount: refund.amount,
    currency: checkout.currency,
    merchantTransactionId: refund.merchantTransactionId,
    result: result(refund.resultCode),
    timestamp: stamp(),
  };
}

/** The hosted payment form: Pay / Decline, posting back to `action`. */
export function payPageHtml(checkout: FakeCheckout, action: string): string {
  const paid = classifyResultCode(checkout.resultCode) === 'succeeded';
  return page(
    'gatewayone sandbox payment',
    `<h1>gatewayone sandbox</h1>
<p>Pay <strong>${escapeHtml(checkout.amount)} ${escapeHtml(checkout.currency)}</strong> for order
<code>${escapeHtml(checkout.merchantTransactionId ?? '')}</code>. No money moves here.</p>
${
  paid
    ? '<p>This checkout is already paid.</p>'
    : `<form method="post" action="${escapeHtml(action)}">
<button name="decision" value="pay">Pay</button><button name="decision" value="decline">Decline</button></form>`
}`,
  );
}

/** Checks a checkout request as the gateway would: the names of the bad fields, and the custom parameters. */
export function checkCheckoutForm(body: Record<string, string | undefined>): {
  problems: string[];
  customParameters: Record<string, string>;
} {
  const problems: string[] = [];
  const { amount = '', currency = '', paymentType } = body;
  let minor = 0;
  try {
    minor = majorToMinor(amount, currency);
    // The gateway wants exactly the currency's decimals: "12.10", never "12.1".
    if (minorToMajorString(minor, currency) !== amount) problems.push('amount');
  } catch {
    problems.push(/^[A-Z]{3}$/.test(currency) ? 'amount' : 'currency');
  }
  // A pre-authorisation of nothing with a registration verifies the card alone (a trial's start).
  const verification = paymentType === 'PA' && body.createRegistration === 'true';
  if (minor < 0 || (minor === 0 && !verification)) if (!problems.includes('amount')) problems.push('amount');
  if (paymentType !== 'DB' && paymentType !== 'PA') problems.push('paymentType');
  const customParameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const key = /^customParameters\[(.*)\]$/.exec(name)?.[1];
    if (key === undefined) continue;
    if (!/^[A-Za-z0-9._]{3,64}$/.test(key)) problems.push(name);
    customParameters[key] = String(value);
  }
  return { problems, customParameters };
}
