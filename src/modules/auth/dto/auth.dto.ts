import { ApiProperty } from '@nestjs/swagger';
import { IsDateString, Matches } from 'class-validator';
import { Bool, Email, Line, NotNull, Str } from '#app/common/validation/fields.js';
import { Prop } from '#app/common/validation/fields.js';
import { UserDto } from '#app/modules/users/dto/user.dto.js';
import { PASSWORD_LENGTH } from '../auth.rules.js';

const SITE = {
  required: true,
  max: 64,
  example: 'main',
  description: 'The site; may be sent as the `X-Site-Id` header instead.',
} as const;
const PASSWORD = {
  required: true,
  min: 1,
  max: PASSWORD_LENGTH.max,
  example: 'correct horse battery staple',
} as const;

export class RegisterDto {
  @Email({ required: true }) email!: string;
  @Str({ ...PASSWORD, description: '10 to 128 characters, not a common password.' }) password!: string;
  @Str(SITE) site_id!: string;
  @Line({ max: 200, example: 'Jane Doe' }) name?: string;
  @Str({ max: 64, description: 'A referrer’s code.' }) referral_code?: string;
  @Str({ max: 4000, description: 'A spin token from `POST /gaming/spin`, claimed after signup.' })
  spin_token?: string;
  @Bool({ nullable: false }) marketing_consent?: boolean;
  @Bool({ required: true, description: 'Must be true: an account cannot exist without it.' })
  data_processing_consent!: boolean;
  @Bool({
    description:
      'The 18+ declaration: must be true (else 422 AGE_REQUIRED) unless the site’s ' +
      '`additional_settings.age_check` is `"none"`, where it is not asked for.',
    example: true,
  })
  age_confirmed?: boolean;
  @NotNull()
  @IsDateString({ strict: true }, { message: 'date_of_birth must be a date (YYYY-MM-DD)' })
  // A calendar date only: IsDateString also takes a timestamp ("2011-06-15T00:00:00Z"), a date picker's default.
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'date_of_birth must be a date (YYYY-MM-DD)' })
  @ApiProperty({ required: false, type: String, format: 'date', example: '1990-05-17' })
  date_of_birth?: string;
}

export class LoginDto {
  @Email({ required: true }) email!: string;
  @Str(PASSWORD) password!: string;
  @Str(SITE) site_id!: string;
}

export class RefreshDto {
  @Str({ required: true, max: 200 }) refresh_token!: string;
}

export class EmailSiteDto {
  @Email({ required: true }) email!: string;
  @Str(SITE) site_id!: string;
}

export class TokenDto {
  @Str({ required: true, max: 200 }) token!: string;
}

/** Endpoint 1. */
export class PasswordSetConfirmDto {
  @Str({ ...PASSWORD, description: '10 to 128 characters, not a common password.' }) password!: string;
  @Str({ required: true, max: 200, description: 'From a password-reset or password-set e-mail.' })
  token!: string;
}

export class TokenPairDto {
  @Prop(String, { example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…' }) access_token!: string;
  @Prop(String) refresh_token!: string;
  @Prop(String, { example: 'Bearer' }) token_type!: 'Bearer';
  @Prop('integer', { example: 900, description: 'Seconds until the access token expires.' })
  expires_in!: number;
}

export class RegisteredDto extends TokenPairDto {
  @Prop(UserDto) user!: UserDto;
}

/** Endpoint 2 (and the magic-link request): the same answer whether or not the account exists. */
export class EmailSentDto {
  @Prop(String, { example: 'jane@example.com' }) email!: string;
  @Prop(String, { example: 'If an account exists for this address, we have sent it an e-mail.' })
  message!: string;
}

/** Endpoint 1's answer. */
export class PasswordSetDto {
  @Prop(String, { description: 'A one-time sign-in link on the site’s front end.' }) activation_link!: string;
  @Prop(String) email!: string;
  @Prop(String, { example: 'Your password is set and your account is active.' }) message!: string;
}
