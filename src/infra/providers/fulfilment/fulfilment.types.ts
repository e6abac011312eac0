/** The provider's own order (Prodigi v4-like), as far as this service reads it. */
export interface FulfilmentOrder {
  id: string;
  /** `InProgress`, `Complete`, `Cancelled`, … */
  stage: string;
  shipments: unknown[];
  charges: unknown[];
  /** The whole order as the provider answered it. */
  raw: Record<string, unknown>;
}

export interface FulfilmentOrderInput {
  merchantReference: string;
  idempotencyKey: string;
  callbackUrl: string;
  shippingMethod: string;
  recipient: {
    name: string;
    email: string | null;
    phoneNumber: string | null;
    address: {
      line1: string;
      line2: string | null;
      postalOrZipCode: string;
      countryCode: string;
      townOrCity: string;
      stateOrCounty: string | null;
    };
  };
  items: Array<{
    merchantReference: string;
    sku: string;
    copies: number;
    sizing: string;
    attributes: Record<string, unknown>;
    assets: Array<{ printArea: string; url: string }>;
  }>;
}

export interface FulfilmentCreated {
  outcome: 'Created' | 'AlreadyExists';
  order: FulfilmentOrder;
}
