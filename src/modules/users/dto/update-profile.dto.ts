import { Bool, Line, Nested, Str } from '#app/common/validation/fields.js';

/**
 * Every profile field is one line (`Line`: control characters refused): they reach e-mail variables, the
 * contact list and the public winners' list ("Sam from Kent"), where a line break or a bell is not a place.
 */
export class ProfileFieldsDto {
  @Bool({ nullable: false }) accepts_marketing?: boolean;
  @Line({ max: 200 }) address?: string;
  @Line({ max: 200 }) address_2?: string;
  @Line({ max: 100 }) city?: string;
  @Line({ max: 100, example: 'GB' }) country?: string;
  @Line({ max: 100, example: 'Jane' }) first_name?: string;
  @Line({ max: 100, example: 'Doe' }) last_name?: string;
  @Line({ max: 32, example: '51.5072' }) latitude?: string;
  @Line({ max: 20, example: 'en-GB' }) locale?: string;
  @Line({ max: 32, example: '-0.1276' }) longitude?: string;
  @Line({ max: 200 }) marketing_id?: string;
  @Line({ max: 200 }) organization?: string;
  @Line({ max: 40, example: '+44 20 7946 0000' }) phone_number?: string;
  @Line({ max: 100 }) state_region?: string;
  @Line({ max: 64, example: 'Europe/London' }) timezone?: string;
  @Line({ max: 50 }) title?: string;
  @Line({ max: 20 }) zip_code?: string;
}

/** Endpoint 21. `role` is accepted only when it equals the caller's own (403 otherwise, DESIGN §3). */
export class UpdateProfileDto {
  @Bool({ nullable: false, description: 'Changing it records `consent_given_at` and an activity-log entry.' })
  marketing_consent?: boolean;

  @Str({ max: 20, description: 'Must equal your current role: a user cannot change its own role.' })
  role?: string;

  @Nested(() => ProfileFieldsDto)
  profile?: ProfileFieldsDto;
}
