import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { FakeFulfilment } from '#app/infra/providers/fulfilment/fake/fake-fulfilment.js';
import { api } from './api';
import { closedPort } from './mail';
import { startPaymentsWorld, stopPaymentsWorld, type PaymentsWorld } from './payments';

export interface MerchWorld extends PaymentsWorld {
  fulfilment: FakeFulfilment;
  /** The app's own address (its `PUBLIC_BASE_URL`: callbacks come back here). */
  base: string;
  closeFulfilment(): Promise<void>;
}

/**
 * The payments world plus a print-on-demand provider faked on loopback over real HTTP; the app's
 * `PUBLIC_BASE_URL` is its own loopback address, so the provider's callbacks reach it.
 */
export async function startMerchWorld(): Promise<MerchWorld> {
  const apiKey = `ful-${randomBytes(12).toString('hex')}`;
  const fulfilment = new FakeFulfilment({ apiKey });
  const app = express();
  app.use(fulfilment.router);
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A free port for the app, known before it starts (its public address goes into callback URLs).
  const port = await closedPort();
  const base = `http://127.0.0.1:${port}`;
  const w = await startPaymentsWorld({
    port,
    config: { publicBaseUrl: base, fulfilment: { baseUrl: url, apiKey, timeoutMs: 1_000 } },
  });
  return {
    ...w,
    fulfilment,
    base,
    closeFulfilment: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function stopMerchWorld(w: MerchWorld): Promise<void> {
  await stopPaymentsWorld(w);
  await w.closeFulfilment();
}

/** A product of the world's site (any field overridable). */
export async function productOn(
  w: PaymentsWorld,
  over: Record<string, unknown> = {},
): Promise<{ id: string; amount_cents: number; sku: string }> {
  const res = await api(w.t.app)
    .as(w.admin.token)
    .post('/api/admin/merch/products', {
      name: 'Winner’s T-shirt',
      sku: 'GLOBAL-TEE-GIL-64000',
      amount_cents: 1500,
      currency: 'GBP',
      sizing: 'fillPrintArea',
      attributes: { size: 'm', color: 'black' },
      assets: { default: 'https://cdn.example.com/prints/tee-front.png' },
      ...over,
    })
    .expect(201);
  return res.body as { id: string; amount_cents: number; sku: string };
}

export const ADDRESS = {
  recipient_name: 'Jane Doe',
  recipient_email: 'jane@example.com',
  recipient_phone: '+447700900123',
  address_line1: '1 High Street',
  town_or_city: 'London',
  state_or_county: 'Greater London',
  postal_or_zip_code: 'SW1A 1AA',
  country_code: 'GB',
  shipping_method: 'Standard',
};

/** The stored order's stage, shipments and charges, as an admin reads it. */
export async function adminOrder(
  w: PaymentsWorld,
  id: string,
): Promise<Record<string, unknown> & { status_stage: string }> {
  const res = await api(w.t.app).as(w.admin.token).get(`/api/admin/merch/orders/${id}`).expect(200);
  return res.body as Record<string, unknown> & { status_stage: string };
}
