import type { JsonBounds } from '#app/common/validation/json-bounds.js';

/**
 * What a caller's own data on an order or payment (`metadata`, `custom_data`, `utm_params`) may hold: it is
 * stored on the payment, which the buyer's record nests, and an anonymous order may name a member as its buyer.
 */
export const CLIENT_DATA_BOUNDS: JsonBounds = { maxDepth: 4, maxBytes: 8 * 1024 };
