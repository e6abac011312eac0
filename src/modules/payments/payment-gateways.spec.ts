import type { AppConfig } from '#app/config/app-config.js';
import type { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';
import type { GatewayOnePayment } from '#app/infra/providers/gatewayone/gatewayone.types.js';
import type { GatewayTwoClient } from '#app/infra/providers/gatewaytwo/gatewaytwo.client.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { PaymentGateways } from './payment-gateways.js';

const payment = { id: '0b7c5c2e-7a8e-4b1e-9d55-1f4f3c2a9e10', amount_cents: 1000, currency: 'GBP' };
const timedOut = new ProviderError('gatewayone', 'unavailable', 'no answer within 2000 ms');
const turnedAway = new ProviderError('gatewayone', 'unavailable', 'answered 503', 503, undefined, true);

/** A stored-card charge whose outcome each test decides, and a look-up that answers `lookUp`. */
function gateways(charge: () => Promise<never>, lookUp: () => Promise<GatewayOnePayment[]>) {
  const calls = { lookUps: 0 };
  const one = {
    chargeRegistration: charge,
    findByMerchantTransactionId: () => {
      calls.lookUps++;
      return lookUp();
    },
  } as unknown as GatewayOneClient;
  return { calls, gateways: new PaymentGateways(one, {} as GatewayTwoClient, {} as AppConfig) };
}

describe('PaymentGateways.chargeStoredCard', () => {
  it('does not look up a charge the gateway turned away: nothing was taken', async () => {
    const { calls, gateways: g } = gateways(
      () => Promise.reject(turnedAway),
      () => Promise.resolve([]),
    );
    const error = (await g.chargeStoredCard(payment, 'reg-1').catch((e: unknown) => e)) as ProviderError;
    expect(error).toBe(turnedAway);
    expect(error.mayHaveActed).toBe(false);
    expect(calls.lookUps).toBe(0);
  });

  it('settles a charge whose answer was lost by the look-up under our reference', async () => {
    const { calls, gateways: g } = gateways(
      () => Promise.reject(timedOut),
      () =>
        Promise.resolve([
          {
            paymentId: 'gw-1',
            outcome: 'succeeded',
            resultCode: '000.100.110',
            raw: {},
          } as GatewayOnePayment,
        ]),
    );
    await expect(g.chargeStoredCard(payment, 'reg-1')).resolves.toMatchObject({
      outcome: 'succeeded',
      gatewayPaymentId: 'gw-1',
    });
    expect(calls.lookUps).toBe(1);
  });

  it('answers the charge’s own error when its look-up is turned away: the charge may still have been taken', async () => {
    const { gateways: g } = gateways(
      () => Promise.reject(timedOut),
      () => Promise.reject(turnedAway),
    );
    const error = (await g.chargeStoredCard(payment, 'reg-1').catch((e: unknown) => e)) as ProviderError;
    expect(error).toBe(timedOut);
    expect(error.mayHaveActed).toBe(true);
  });
});
