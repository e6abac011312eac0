import { HttpStatus, Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { type EntryRefusal, refusalStatus } from '#app/modules/raffles/entries/entries.rules.js';
import { PaymentGateways } from './payment-gateways.js';
import { PaymentOutcomeService } from './payment-outcome.service.js';
import { type PaymentHead, PaymentsRepository } from './payments.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ConfirmRequest {
  orderId?: string;
  paymentId?: string;
  /** What the front end says happened: recorded, never trusted. */
  clientResultCode?: string;
  clientStatus?: string;
}

/**
 * Endpoint 3's second mode: a front end hands over a completed checkout. The server asks the gateway
 * what happened and acts on that alone; whatever the client claims is only recorded.
 */
@Injectable()
export class ConfirmationService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly gateways: PaymentGateways,
    private readonly outcomes: PaymentOutcomeService,
  ) {}

  async confirm(req: ConfirmRequest): Promise<PaymentHead> {
    const payment = await this.find(req);
    if (!payment || payment.gateway !== 'gatewayone') throw AppException.notFound('Order');
    // What a success would fulfil is read while the gateway is asked, not after.
    const planning = this.outcomes.planFor(payment);
    let verdict;
    try {
      verdict = await this.gateways.verdict(payment);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw new AppException(
        HttpStatus.BAD_GATEWAY,
        'GATEWAY_UNAVAILABLE',
        'The payment gateway could not be reached; try again.',
      );
    }
    const after = await this.outcomes.apply(
      payment,
      {
        outcome: verdict.outcome,
        source: 'confirmation',
        gatewayPaymentId: verdict.gatewayPaymentId,
        gatewayResponse: verdict.raw,
        clientClaim: {
          result_code: req.clientResultCode ?? null,
          status: req.clientStatus ?? null,
          at: new Date().toISOString(),
        },
      },
      planning,
    );
    if (!after) throw AppException.notFound('Order');
    if (after.status === 'failed' || after.status === 'cancelled')
      throw AppException.unprocessable(
        'PAYMENT_DECLINED',
        'The gateway reports that the payment did not go through.',
      );
    if (after.fulfilment === 'refunded_unfillable') throw unfillable(after);
    return after;
  }

  private async find(req: ConfirmRequest): Promise<PaymentHead | null> {
    if (req.orderId && UUID.test(req.orderId)) {
      const byOrder = await this.payments.head(req.orderId);
      if (byOrder) return byOrder;
    }
    if (req.paymentId) return this.payments.headByGatewayId('gatewayone', req.paymentId);
    return null;
  }
}

/**
 * A paid order whose tickets could no longer be entered (sold out, or the buyer's cap reached meanwhile), or
 * whose checkout was paid during a self-pause its buyer began after opening it:
 * the buyer must not be told their entries are in. Answered as the entry refusal it is, saying that the
 * whole amount is being refunded.
 */
function unfillable(payment: PaymentHead): AppException {
  const refusal = (payment.unfillable as EntryRefusal | null) ?? 'SOLD_OUT';
  const text =
    refusal === 'SELF_PAUSED'
      ? 'Your payment went through while your account is paused, so nothing was bought; the whole amount is ' +
        'being refunded.'
      : 'Your payment went through, but the tickets could no longer be entered; nothing was entered and the ' +
        'whole amount is being refunded.';
  return new AppException(refusalStatus(refusal), refusal, text);
}
