import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config/app-config.js';
import { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';
import { GatewayTwoClient } from '#app/infra/providers/gatewaytwo/gatewaytwo.client.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import { type GatewayOutcome, refundReference } from './payments.rules.js';

export interface OpenedCheckout {
  checkoutId: string;
  checkoutUrl: string | null;
  integrity: string | null;
  raw: Record<string, unknown>;
}

export interface GatewayVerdict {
  outcome: GatewayOutcome;
  gatewayPaymentId: string | null;
  resultCode: string | null;
  raw: Record<string, unknown>;
}

/**
 * The two gateways as payments needs them: open a checkout for a payment, ask what became of it,
 * refund it. Adapters throw `ProviderError` (`unavailable` or `rejected`) on failure.
 */
@Injectable()
export class PaymentGateways {
  constructor(
    private readonly one: GatewayOneClient,
    private readonly two: GatewayTwoClient,
    private readonly config: AppConfig,
  ) {}

  async open(
    payment: PaymentTransaction,
    opts: {
      integrity?: boolean;
      returnUrl?: string | null;
      customerEmail?: string | null;
      /** Store the card for the service to charge later (a membership). */
      createRegistration?: boolean;
      /** `PA` with 0.00 and a registration verifies the card alone (a trial's start). */
      paymentType?: 'DB' | 'PA';
    },
  ): Promise<OpenedCheckout> {
    if (payment.gateway === 'gatewayone') {
      const created = await this.one.createCheckoutOnce({
        amountCents: payment.amount_cents,
        currency: payment.currency,
        merchantTransactionId: payment.id,
        customParameters: { site_id: payment.site_id },
        integrity: opts.integrity,
        shopperResultUrl: opts.returnUrl ?? undefined,
        createRegistration: opts.createRegistration,
        paymentType: opts.paymentType,
      });
      return {
        checkoutId: created.id,
        checkoutUrl: this.hostedFormUrl(created.id),
        integrity: created.integrity ?? null,
        raw: created.raw,
      };
    }
    const order = await this.two.createOrder({
      amountCents: payment.amount_cents,
      currency: payment.currency,
      description: payment.description ?? 'Order',
      reference: payment.id,
      redirectUrl: opts.returnUrl ?? undefined,
      customerEmail: opts.customerEmail ?? undefined,
    });
    return { checkoutId: order.id, checkoutUrl: order.checkoutUrl, integrity: null, raw: order.raw };
  }

  /** What the gateway says became of the payment: the only source of truth for money. */
  async verdict(
    payment: Pick<PaymentTransaction, 'id' | 'gateway' | 'checkout_id'>,
  ): Promise<GatewayVerdict> {
    // A charge of a stored card has no checkout: the gateway files it under our reference.
    if (!payment.checkout_id && payment.gateway === 'gatewayone') return this.lookUp(payment.id);
    if (!payment.checkout_id)
      return { outcome: 'pending', gatewayPaymentId: null, resultCode: null, raw: {} };
    if (payment.gateway === 'gatewayone') {
      const result = await this.one.getCheckoutPayment(payment.checkout_id);
      return {
        outcome: result.outcome,
        gatewayPaymentId: result.paymentId ?? null,
        resultCode: result.resultCode,
        raw: result.raw,
      };
    }
    const order = await this.two.getOrder(payment.checkout_id);
    return { outcome: order.outcome, gatewayPaymentId: order.id, resultCode: order.state, raw: order.raw };
  }

  /**
   * Charges a stored card for a payment of ours (a membership's renewal), once: when the answer is lost
   * the charge is settled by looking it up under our reference, never by charging again. Throws
   * `ProviderError` when neither the charge nor the look-up could be answered (the payment stays
   * pending, to be looked up later by reconciliation or the next run), and at once, unlooked-up, when the
   * charge provably never reached the gateway (`mayHaveActed` false: turned away, or never sent).
   */
  async chargeStoredCard(
    payment: Pick<PaymentTransaction, 'id' | 'amount_cents' | 'currency'>,
    registrationId: string,
  ): Promise<GatewayVerdict> {
    try {
      const charged = await this.one.chargeRegistration(registrationId, {
        amountCents: payment.amount_cents,
        currency: payment.currency,
        merchantTransactionId: payment.id,
      });
      return {
        outcome: charged.outcome,
        gatewayPaymentId: charged.paymentId ?? null,
        resultCode: charged.resultCode,
        raw: charged.raw,
      };
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.mayHaveActed) throw error;
      // A look-up that fails says nothing of the charge: the charge's own error is the one that counts (a
      // look-up turned away must not pass for a charge that never reached the gateway, to be sent again).
      return this.lookUp(payment.id).catch((lookUpError: unknown) => {
        throw lookUpError instanceof ProviderError ? error : lookUpError;
      });
    }
  }

  /** What the gateway holds under our reference: its newest payment's verdict, or pending when none. */
  private async lookUp(reference: string): Promise<GatewayVerdict> {
    const found = await this.one.findByMerchantTransactionId(reference);
    const paid = found.filter((p) => p.paymentId).pop();
    if (!paid) return { outcome: 'pending', gatewayPaymentId: null, resultCode: null, raw: {} };
    return {
      outcome: paid.outcome,
      gatewayPaymentId: paid.paymentId ?? null,
      resultCode: paid.resultCode,
      raw: paid.raw,
    };
  }

  async refund(
    payment: PaymentTransaction,
    amountCents: number,
    reason: string,
  ): Promise<{ ok: boolean; raw: Record<string, unknown> }> {
    if (payment.gateway === 'gatewayone') {
      const paymentId = payment.gateway_transaction_id;
      if (!paymentId) return { ok: false, raw: { error: 'no gateway payment id to refund' } };
      const refund = await this.one.refund(
        paymentId,
        amountCents,
        payment.currency,
        refundReference(payment.id),
      );
      return { ok: refund.outcome === 'succeeded', raw: refund.raw };
    }
    if (!payment.checkout_id) return { ok: false, raw: { error: 'no gateway order to refund' } };
    const refund = await this.two.refundOrder(payment.checkout_id, amountCents, reason);
    return { ok: refund.outcome !== 'failed' && refund.outcome !== 'cancelled', raw: refund.raw };
  }

  /**
   * What the gateway has given back on this payment in all, in minor units, read from the gateway itself:
   * how a refund whose answer was lost is settled (DESIGN §7: look up, never send again blindly).
   */
  async refundedAtGateway(payment: PaymentTransaction): Promise<number> {
    if (payment.gateway === 'gatewayone') return this.one.refundedUnder(refundReference(payment.id));
    if (!payment.checkout_id) return 0;
    const order = await this.two.getOrder(payment.checkout_id);
    if (order.refundedCents === undefined)
      throw new ProviderError('gatewaytwo', 'unavailable', 'gatewaytwo did not say what the order refunded');
    return order.refundedCents;
  }

  environment(): 'sandbox' | 'live' {
    return this.config.providers;
  }

  /**
   * Where a browser pays a gatewayone checkout: the sandbox's own form page, or the gateway's payment
   * widget script a front end embeds.
   */
  private hostedFormUrl(checkoutId: string): string {
    const base = this.config.gatewayOne?.baseUrl ?? '';
    return this.config.providers === 'sandbox'
      ? `${base}/pay/${encodeURIComponent(checkoutId)}`
      : this.one.widgetScriptUrl(checkoutId);
  }
}
