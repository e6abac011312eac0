import { Prop } from '#app/common/validation/fields.js';
import {
  PaymentTransactionRecordDto,
  PointTransactionRecordDto,
  RaffleEntryRecordDto,
} from './user-records.dto.js';

export class UserProfileDto {
  @Prop(String) id!: string;
  @Prop(String) user_id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { nullable: true, example: 'Jane' }) first_name!: string | null;
  @Prop(String, { nullable: true, example: 'Doe' }) last_name!: string | null;
  @Prop(String, { nullable: true }) title!: string | null;
  @Prop(String, { nullable: true }) organization!: string | null;
  @Prop(String, { nullable: true }) phone_number!: string | null;
  @Prop(String, { nullable: true }) address!: string | null;
  @Prop(String, { nullable: true }) address_2!: string | null;
  @Prop(String, { nullable: true }) city!: string | null;
  @Prop(String, { nullable: true }) state_region!: string | null;
  @Prop(String, { nullable: true }) zip_code!: string | null;
  @Prop(String, { nullable: true }) country!: string | null;
  @Prop(String, { nullable: true }) latitude!: string | null;
  @Prop(String, { nullable: true }) longitude!: string | null;
  @Prop(String, { nullable: true }) locale!: string | null;
  @Prop(String, { nullable: true }) timezone!: string | null;
  @Prop(String, { nullable: true }) marketing_id!: string | null;
  @Prop(Boolean) accepts_marketing!: boolean;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}

export class ActivityLogDto {
  @Prop(String) id!: string;
  @Prop(String, { nullable: true }) user_id!: string | null;
  @Prop(String, { nullable: true }) site_id!: string | null;
  @Prop(String, { example: 'login' }) activity_type!: string;
  @Prop(String) description!: string;
  @Prop(String, { example: 'info' }) severity!: string;
  @Prop(String, { nullable: true }) ip_address!: string | null;
  @Prop(String, { nullable: true }) user_agent!: string | null;
  @Prop(String, { nullable: true }) request_id!: string | null;
  @Prop(String, { nullable: true }) session_id!: string | null;
  @Prop(String, { nullable: true }) resource_type!: string | null;
  @Prop(String, { nullable: true }) resource_id!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop('object') metadata!: Record<string, unknown>;
}

/** The User resource with everything the spec nests in it (endpoint 21, `GET /users/me`). */
export class UserDto {
  @Prop(String) id!: string;
  @Prop(String, { nullable: true, example: 'Jane Doe' }) name!: string | null;
  @Prop(String, { example: 'jane@example.com' }) email!: string;
  @Prop(String, { example: 'user', enum: ['user', 'admin', 'superadmin'] } as never) role!: string;
  @Prop(String, { example: 'register' }) signup_source!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  @Prop(String, { nullable: true }) consent_version!: string | null;
  @Prop(String, { nullable: true, format: 'date-time' }) consent_given_at!: string | null;
  @Prop(String, { nullable: true, format: 'date-time' }) last_login_at!: string | null;
  @Prop(String, { nullable: true, format: 'date-time' }) account_locked_until!: string | null;
  @Prop(String, { nullable: true, format: 'date-time' }) deleted_at!: string | null;
  @Prop(String, { nullable: true }) deletion_reason!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
  @Prop('integer') failed_login_attempts!: number;
  @Prop(Boolean) has_consented!: boolean;
  @Prop(Boolean) data_processing_consent!: boolean;
  @Prop(Boolean) marketing_consent!: boolean;
  @Prop(UserProfileDto, { nullable: true }) profile!: UserProfileDto | null;
  @Prop([ActivityLogDto]) activity_logs!: ActivityLogDto[];
  @Prop([PaymentTransactionRecordDto]) payment_transactions!: PaymentTransactionRecordDto[];
  @Prop([PointTransactionRecordDto]) points!: PointTransactionRecordDto[];
  @Prop([RaffleEntryRecordDto]) raffle_entries!: RaffleEntryRecordDto[];
}

/** A user in admin lists: the account without its nested records. */
export class UserSummaryDto {
  @Prop(String) id!: string;
  @Prop(String, { nullable: true }) name!: string | null;
  @Prop(String) email!: string;
  @Prop(String) role!: string;
  @Prop(String) site_id!: string;
  @Prop(String) signup_source!: string;
  @Prop(String, { nullable: true, format: 'date-time' }) last_login_at!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
}
