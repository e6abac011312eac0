import 'reflect-metadata';
import type { GatewayOneSettings } from '#app/config/gateway-config.js';
import { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';

/**
 * The bare baseline of `bench:renewals`: the same stored-card charges, through the same gateway client at
 * the same width, from a process with no database and no application. What the loopback gateway allows.
 */
process.once(
  'message',
  (m: { settings: GatewayOneSettings; registrationId: string; count: number; width: number }) => {
    void (async () => {
      const client = new GatewayOneClient({ gatewayOne: m.settings });
      let next = 0;
      const started = process.hrtime.bigint();
      const lane = async (): Promise<void> => {
        while (next < m.count) {
          const i = next++;
          await client.chargeRegistration(m.registrationId, {
            amountCents: 999,
            currency: 'GBP',
            merchantTransactionId: `bare-${process.pid}-${i}`,
          });
        }
      };
      await Promise.all(Array.from({ length: m.width }, lane));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.send?.({ seconds }, () => process.exit(0));
    })();
  },
);
