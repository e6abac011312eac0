import type { FieldError } from '#app/common/errors/app.exception.js';

export interface ErrorDoc {
  status: number;
  /** What the service answers in `detail` (a representative text where it names values). */
  detail: string;
  errors?: FieldError[];
}

/**
 * Every error `code` the document shows, with its HTTP status and the words the service answers with.
 * Routes name the codes they can answer (`@ApiErrors('UNKNOWN_SITE', …)`) and the document gets one
 * example body per code. A unit test holds every code here to a place in the code that raises it.
 */
export const ERROR_CATALOGUE = {
  AMOUNT_TOO_LARGE: {
    status: 422,
    detail: 'An order may come to at most 100000000 (minor units); this one comes to 220000000.',
  },
  AMOUNT_TOO_SMALL: {
    status: 422,
    detail: 'This order comes to nothing, and a payment of nothing cannot be taken.',
  },
  SECRET_REQUIRED: {
    status: 422,
    detail: 'The SMTP password must be sent again when the server it logs in to changes.',
    errors: [
      { field: 'smtp_password', message: 'must be sent again (or null to clear it) when smtp_host changes' },
    ],
  },
  VALIDATION_FAILED: {
    status: 400,
    detail: 'The request is not valid.',
    errors: [
      {
        field: 'price_display',
        message: 'price_display must be a number conforming to the specified constraints',
      },
    ],
  },
  UNAUTHENTICATED: { status: 401, detail: 'A valid access token is required.' },
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'The request body is too large.' },
  FORBIDDEN: { status: 403, detail: 'You are not allowed to do this.' },
  WRONG_PASSWORD: { status: 403, detail: 'The password is not correct.' },
  SPIN_TOKEN_OTHER_SITE: { status: 403, detail: 'This spin result belongs to another site.' },
  NOT_FOUND: { status: 404, detail: 'Resource not found.' },
  UNKNOWN_SITE: { status: 404, detail: 'There is no site "shop2".' },
  ALREADY_CLAIMED: { status: 409, detail: 'You have already claimed this code.' },
  CODE_USED_UP: { status: 409, detail: 'Every use of this discount code has been claimed.' },
  PRICE_CHANGED: {
    status: 409,
    detail: 'The code’s price changed while it was being claimed; nothing was spent. Look at it again.',
  },
  CODE_NOT_VALID: { status: 422, detail: 'This discount code cannot be claimed now.' },
  REFERRAL_CODE_UNKNOWN: {
    status: 422,
    detail: 'No member of this site has that referral code: check it, or register without one.',
  },
  ALREADY_CLOSED: { status: 409, detail: 'The raffle is already closed.' },
  SALES_ENDED: {
    status: 409,
    detail: 'The raffle’s sales have ended: draw_beacon_round can no longer change.',
  },
  ALREADY_DRAWN: { status: 409, detail: 'This raffle has already been drawn.' },
  RAFFLE_NOT_CLOSED: { status: 409, detail: 'Only a closed raffle can be drawn: close it first.' },
  BEACON_NOT_ANNOUNCED: {
    status: 422,
    detail:
      'This raffle announced no beacon before its close (draw_beacon_round): a beacon chosen at the draw could pick the winner. Draw without one.',
  },
  BEACON_REQUIRED: {
    status: 422,
    detail:
      'This raffle announced the beacon "drand quicknet round 12345678": give that round\'s value as beacon.',
  },
  INSTANT_WINS_EXCEED_TICKETS: {
    status: 422,
    detail: 'The instant-win prizes need more winning tickets than the raffle has.',
  },
  INSTANT_WINS_FIXED: {
    status: 409,
    detail: 'Instant wins are fixed at publication: they can be changed only while a draft.',
  },
  PRIZE_ALREADY_CLAIMED: { status: 409, detail: 'This prize has already been claimed.' },
  ALREADY_ENTERED_FREE: { status: 409, detail: 'You have already taken the free entry into this raffle.' },
  AMBIGUOUS_ITEM: {
    status: 409,
    detail: 'Several sites have a raffle with this item_id: name the site with site_id or X-Site-Id.',
  },
  EMAIL_TAKEN: { status: 409, detail: 'An account with this e-mail already exists on this site.' },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    detail: 'A request with this Idempotency-Key is still being processed; retry shortly.',
  },
  ITEM_ID_TAKEN: { status: 409, detail: 'This site already has a raffle with that item_id.' },
  NOT_DRAFT: { status: 409, detail: 'Only a draft can be published.' },
  NOT_PUBLISHED: { status: 409, detail: 'A draft cannot be closed.' },
  NOT_REFUNDABLE: { status: 409, detail: 'A pending payment cannot be refunded.' },
  RAFFLE_CLOSED: { status: 409, detail: 'This raffle is not open for entries.' },
  ACCOUNT_DELETED: { status: 409, detail: 'This account has been deleted; it cannot enter raffles.' },
  ALREADY_CANCELLED: { status: 409, detail: 'This membership is already cancelled.' },
  ALREADY_ENDING: {
    status: 409,
    detail: 'This membership already ends with its period; cancel with `immediate: true` to end it now.',
  },
  NOT_RENEWABLE: { status: 409, detail: 'A cancelled membership takes no card.' },
  NOT_UPGRADABLE: { status: 409, detail: 'A cancelled membership cannot be upgraded.' },
  NOT_PAUSABLE: { status: 409, detail: 'A past_due membership cannot be paused.' },
  NOT_PAUSED: { status: 409, detail: 'This membership is not paused.' },
  RAFFLE_NOT_STARTED: {
    status: 409,
    detail: 'This raffle has not started yet: it opens for entries at 2027-01-01T00:00:00.000Z.',
  },
  SPIN_ALREADY_CLAIMED: { status: 409, detail: 'This spin result has already been claimed.' },
  SPIN_REWARD_TAKEN: { status: 409, detail: 'You have already claimed a spin reward.' },
  SITE_EXISTS: { status: 409, detail: 'A site "second-site" already exists.' },
  SLUG_TAKEN: { status: 409, detail: 'The site already has a brand with slug "acme-outdoor".' },
  TIER_NAME_TAKEN: { status: 409, detail: 'This site already has a tier with that name.' },
  PRODUCT_NOT_AVAILABLE: { status: 422, detail: 'One of the products is not sold on this site.' },
  MIXED_CURRENCIES: {
    status: 422,
    detail: 'Products in two currencies cannot be bought in one order.',
  },
  SUBMISSION_WITHOUT_EMAIL: {
    status: 422,
    detail: 'The submission has no e-mail address to make a member of.',
  },
  AGE_REQUIRED: { status: 422, detail: 'You must confirm that you are 18 or over.' },
  AMOUNT_MISMATCH: { status: 422, detail: 'The amount does not match the server’s price for this order.' },
  CODE_SPACE_TOO_SMALL: {
    status: 422,
    detail:
      'This prefix, alphabet and length allow at most 10 codes on the site (1% of all possible codes). ' +
      'Use a longer code_length, alphanumeric codes or another prefix.',
  },
  CONSENT_REQUIRED: { status: 422, detail: 'Consent to data processing is needed to hold an account.' },
  CREDITS_UNAVAILABLE: { status: 422, detail: 'You do not have 2 entry credits to use.' },
  TIER_NOT_AVAILABLE: { status: 422, detail: 'This tier is no longer offered.' },
  NOT_AN_UPGRADE: { status: 422, detail: 'silver does not cost more than the current 9.99 GBP a period.' },
  CURRENCY_MISMATCH: { status: 422, detail: 'This raffle is priced in GBP.' },
  ENDS_IN_PAST: { status: 422, detail: 'The raffle’s end_date has passed.' },
  FREE_ENTRY_NOT_OFFERED: { status: 422, detail: 'This raffle has no free entry route.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    detail: 'This Idempotency-Key was used with a different request; use a new key for a new request.',
  },
  INSUFFICIENT_POINTS: { status: 422, detail: 'This needs 300 points, more than the balance holds.' },
  INVALID_TOKEN: { status: 422, detail: 'The link is not valid: it may have expired or been used already.' },
  INVALID_VALIDITY_WINDOW: { status: 422, detail: 'valid_from must not be after valid_until.' },
  MAIL_SETTINGS_INCOMPLETE: {
    status: 422,
    detail: 'The chosen email_provider cannot send with these settings.',
    errors: [{ field: 'smtp_host', message: 'is required when email_provider is "smtp"' }],
  },
  MAX_ENTRIES_EXCEEDED: { status: 422, detail: 'One entrant may hold at most 50 tickets.' },
  MAX_BELOW_HELD: {
    status: 422,
    detail: 'An entrant already holds 15 tickets; max_entries cannot go below that.',
  },
  MAX_ENTRIES_REACHED: {
    status: 422,
    detail: 'This would take you past the most tickets one person may hold in this raffle.',
  },
  NOT_A_BULK_CODE: { status: 422, detail: 'Only a bulk code has generated codes to export.' },
  NOT_ENOUGH_TICKETS: { status: 422, detail: 'Only 3 tickets are left.' },
  NOT_FOR_BULK_CODES: {
    status: 422,
    detail: "A bulk code's code, code_length, code_pattern come from its generated codes and cannot be set.",
  },
  PAYMENT_DECLINED: { status: 422, detail: 'The gateway reports that the payment did not go through.' },
  POINTS_NOT_ACCEPTED: { status: 422, detail: 'This raffle cannot be entered with points.' },
  REFUND_TOO_LARGE: { status: 422, detail: 'At most 250 can still be refunded.' },
  SELF_PAUSE_ACTIVE: {
    status: 422,
    detail:
      'You paused your account until 2027-03-01T00:00:00.000Z; a pause can be extended but not shortened ' +
      'or lifted before it ends.',
  },
  SELF_PAUSED: { status: 422, detail: 'You have paused paid entries on your account for now.' },
  SOLD_OUT: { status: 422, detail: 'There are not enough tickets left in this raffle.' },
  SPIN_TOKEN_EXPIRED: {
    status: 422,
    detail: 'This spin result has expired: spin results are claimable for 24 hours.',
  },
  SPIN_TOKEN_INVALID: { status: 422, detail: 'This is not a valid spin token.' },
  SPEND_LIMIT_REACHED: {
    status: 422,
    detail: 'This order would pass your monthly spend limit; 500 (minor units) is left this month.',
  },
  TOTAL_BELOW_SOLD: { status: 422, detail: '120 tickets are already taken; the total cannot go below that.' },
  TOTAL_BELOW_INSTANT_WINS: {
    status: 422,
    detail: 'Instant-win tickets were fixed among tickets 1–1000; the total cannot go below that.',
  },
  UNDER_AGE: { status: 422, detail: 'You must be 18 or over to register.' },
  UNKNOWN_DISCOUNT_BRAND: { status: 422, detail: 'No discount brand "acme" on this site.' },
  UNKNOWN_TAG: { status: 422, detail: 'No tag on this site with id 6f1c2d0e-3b4a-4c5d-9e8f-0a1b2c3d4e5f.' },
  UNKNOWN_UPSELL: { status: 422, detail: 'This raffle offers no bundle of 7 tickets like that.' },
  UPSELL_REPEATED: { status: 422, detail: 'The bundle of 10 tickets is chosen more than once.' },
  USE_BULK_GENERATE: {
    status: 422,
    detail: 'Bulk codes are made by POST /discount-codes/bulk-generate, which generates their unique codes.',
  },
  USER_MISMATCH: { status: 422, detail: 'user_id does not match the buyer.' },
  RATE_LIMITED: { status: 429, detail: 'Too many requests; try again in 42 seconds.' },
  GATEWAY_UNAVAILABLE: { status: 502, detail: 'The payment gateway could not be reached; try again.' },
  NOT_READY: { status: 503, detail: 'Not ready: database is down.' },
  DATABASE_UNAVAILABLE: {
    status: 503,
    detail: 'The service cannot reach its database right now; try again in a few seconds.',
  },
} satisfies Record<string, ErrorDoc>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The catalogue as a plain map (every entry an `ErrorDoc`). */
export const ERROR_DOCS: Readonly<Record<ErrorCode, ErrorDoc>> = ERROR_CATALOGUE;

/** The code a bare status stands for in `@ApiErrors(400, 404)`: the framework's own for that status. */
export const STATUS_CODE: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  429: 'RATE_LIMITED',
};
