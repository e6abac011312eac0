import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LimitQueryDto } from '#app/common/pagination/pagination.js';
import { Prop, Str } from '#app/common/validation/fields.js';

/** Outbox entries are files, so the cursor is the last file name seen, not a row id. */
export class OutboxQueryDto extends LimitQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^[\w.-]+\.eml$/, { message: 'cursor is not valid' })
  @ApiPropertyOptional({ type: String, description: 'From the previous page’s `X-Next-Cursor` header.' })
  cursor?: string;

  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;
}

export class OutboxSiteQueryDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;
}

/** A message the `log` transport wrote instead of sending. */
export class OutboxEntryDto {
  @Prop(String, {
    example: '2026-11-22T10-15-00-123Z-00000012345678901234-welcome.eml',
    description: 'The file name.',
  })
  id!: string;

  @Prop(String, { nullable: true, example: 'welcome' }) kind!: string | null;
  @Prop(String, { nullable: true, example: 'jane@example.com' }) to!: string | null;
  @Prop(String, { nullable: true, example: 'Welcome to Example Prizes' }) subject!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
}

export class OutboxMessageDto extends OutboxEntryDto {
  @Prop(String, { description: 'The whole message as sent (RFC 5322 .eml): headers, text and HTML parts.' })
  raw!: string;
}
