import type { ActivityLogDto, UserDto, UserProfileDto, UserSummaryDto } from './dto/user.dto.js';
import type {
  PaymentTransactionRecordDto,
  PointTransactionRecordDto,
  RaffleEntryRecordDto,
} from './dto/user-records.dto.js';
import type { ActivityLog } from './entities/activity-log.entity.js';
import type { UserProfile } from './entities/user-profile.entity.js';
import type { User } from './entities/user.entity.js';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The one place an entity becomes a response: nothing else (password hash, tokens) can leak. */
export function toProfileDto(p: UserProfile): UserProfileDto {
  return {
    id: p.id,
    user_id: p.user_id,
    site_id: p.site_id,
    first_name: p.first_name,
    last_name: p.last_name,
    title: p.title,
    organization: p.organization,
    phone_number: p.phone_number,
    address: p.address,
    address_2: p.address_2,
    city: p.city,
    state_region: p.state_region,
    zip_code: p.zip_code,
    country: p.country,
    latitude: p.latitude,
    longitude: p.longitude,
    locale: p.locale,
    timezone: p.timezone,
    marketing_id: p.marketing_id,
    accepts_marketing: p.accepts_marketing,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

/**
 * Whether an entry records someone else's request (staff acting on the user's records): the user's own view
 * then leaves out that person's ip address, user agent and session.
 */
const madeByOther = (l: ActivityLog): boolean => l.actor_id !== null && l.actor_id !== l.user_id;

/**
 * Metadata kept for staff that the user's own view leaves out: a failed mail's transport error names the site's
 * mail server (host, port) or the provider's answer.
 */
const STAFF_ONLY_METADATA: Partial<Record<string, readonly string[]>> = { mail_failed: ['error'] };

function metadataForUser(l: ActivityLog): Record<string, unknown> {
  const hidden = STAFF_ONLY_METADATA[l.activity_type];
  if (!hidden) return l.metadata;
  return Object.fromEntries(Object.entries(l.metadata).filter(([key]) => !hidden.includes(key)));
}

export function toActivityLogDto(l: ActivityLog): ActivityLogDto {
  const other = madeByOther(l);
  return {
    id: l.id,
    user_id: l.user_id,
    site_id: l.site_id,
    activity_type: l.activity_type,
    description: l.description,
    severity: l.severity,
    ip_address: other ? null : l.ip_address,
    user_agent: other ? null : l.user_agent,
    request_id: l.request_id,
    session_id: other ? null : l.session_id,
    resource_type: l.resource_type,
    resource_id: l.resource_id,
    created_at: l.created_at.toISOString(),
    metadata: metadataForUser(l),
  };
}

export interface UserRecords {
  activity_logs: ActivityLog[];
  payment_transactions: PaymentTransactionRecordDto[];
  points: PointTransactionRecordDto[];
  raffle_entries: RaffleEntryRecordDto[];
}

export function toUserDto(u: User, records: UserRecords): UserDto {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    signup_source: u.signup_source,
    site_id: u.site_id,
    consent_version: u.consent_version,
    consent_given_at: iso(u.consent_given_at),
    last_login_at: iso(u.last_login_at),
    account_locked_until: iso(u.account_locked_until),
    deleted_at: iso(u.deleted_at),
    deletion_reason: u.deletion_reason,
    created_at: u.created_at.toISOString(),
    updated_at: u.updated_at.toISOString(),
    failed_login_attempts: u.failed_login_attempts,
    has_consented: u.has_consented,
    data_processing_consent: u.data_processing_consent,
    marketing_consent: u.marketing_consent,
    profile: u.profile ? toProfileDto(u.profile) : null,
    activity_logs: records.activity_logs.map(toActivityLogDto),
    payment_transactions: records.payment_transactions,
    points: records.points,
    raffle_entries: records.raffle_entries,
  };
}

export function toUserSummaryDto(u: User): UserSummaryDto {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    site_id: u.site_id,
    signup_source: u.signup_source,
    last_login_at: iso(u.last_login_at),
    created_at: u.created_at.toISOString(),
  };
}
