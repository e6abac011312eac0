import type { ReferralDto } from './dto/referral.dto.js';
import type { Referral } from './entities/referral.entity.js';
import { referralFlags } from './referrals.rules.js';

const iso = (d: Date | string): string => new Date(d).toISOString();

/** The one place a referral row becomes an answer. */
export function toReferralDto(r: Referral): ReferralDto {
  return {
    id: r.id,
    site_id: r.site_id,
    referrer_user_id: r.referrer_user_id,
    referee_user_id: r.referee_user_id,
    referral_code: r.referral_code,
    status: r.status,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    ...referralFlags(r.status),
  };
}
