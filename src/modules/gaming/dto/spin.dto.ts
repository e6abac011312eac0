import { Prop, Str } from '#app/common/validation/fields.js';

/** Endpoint 19's request. */
export class SpinDto {
  @Str({
    max: 64,
    example: 'main',
    description: 'The site whose wheel to spin; else the `X-Site-Id` header names it.',
  })
  site_id?: string;
}

/** Spin result (spec). */
export class SpinResultDto {
  @Prop('integer', { example: 5, description: 'Bonus entry credits this result is worth (0: no win).' })
  credits_won!: number;
  @Prop('integer', { example: 4, description: 'The wheel segment landed on.' })
  segment_id!: number;
  @Prop(String, {
    format: 'date-time',
    example: '2026-06-02T12:00:00.000Z',
    description: 'Claim it before then (24 hours).',
  })
  expires_at!: string;
  @Prop(String, {
    example:
      'eyJ2IjoxLCJzaXRlIjoibWFpbiIsInNlZyI6NCwiY3JlZGl0cyI6NSwianRpIjoiN2QxZjNhMmMtOWI0ZS00YzZhLThlMWQtMmY1YjZjN2Q4ZTlmIiwiZXhwIjoxNzgwNDAxNjAwfQ.x3hL0o0kqY7wqg3sV0yZ3oKxq2p0n1l7b9w4m1u0tSs',
    description:
      'Signed proof of this result: send it to `POST /gaming/spin/claim` once signed in, or as ' +
      '`spin_token` to `POST /auth/register`. Each token is claimed once.',
  })
  token!: string;
}

/** `POST /gaming/spin/claim`. */
export class ClaimSpinDto {
  @Str({
    required: true,
    min: 1,
    max: 4000,
    description: 'The `token` of a spin result on your site.',
    example:
      'eyJ2IjoxLCJzaXRlIjoibWFpbiIsInNlZyI6NCwiY3JlZGl0cyI6NSwianRpIjoiN2QxZjNhMmMtOWI0ZS00YzZhLThlMWQtMmY1YjZjN2Q4ZTlmIiwiZXhwIjoxNzgwNDAxNjAwfQ.x3hL0o0kqY7wqg3sV0yZ3oKxq2p0n1l7b9w4m1u0tSs',
  })
  token!: string;
}

/** A claimed spin: what it won, and the bonus entry credits the user now holds. */
export class SpinClaimedDto {
  @Prop('integer', { example: 5 }) credits_won!: number;
  @Prop('integer', {
    example: 5,
    description: 'Bonus entry credits you hold now; raffle entries with `method: "credits"` spend them.',
  })
  bonus_credits!: number;
}
