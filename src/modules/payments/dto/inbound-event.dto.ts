import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Prop } from '#app/common/validation/fields.js';

export class InboundEventsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(['gatewayone', 'gatewaytwo', 'cms'])
  @ApiProperty({ enum: ['gatewayone', 'gatewaytwo', 'cms'], required: false })
  provider?: string;

  @IsOptional()
  @IsIn(['received', 'processed', 'ignored', 'failed'])
  @ApiProperty({ enum: ['received', 'processed', 'ignored', 'failed'], required: false })
  status?: 'received' | 'processed' | 'ignored' | 'failed';

  @IsOptional()
  @IsString()
  @MaxLength(64)
  @ApiProperty({
    type: String,
    required: false,
    maxLength: 64,
    description: 'Superadmins: any site (or `X-Site-Id`); naming none lists every site’s.',
  })
  site_id?: string;
}

export class InboundEventDto {
  @Prop(String) id!: string;
  @Prop(String, { example: 'gatewayone' }) provider!: string;
  @Prop(String, { description: 'The provider’s event key (duplicates share it).' }) event_key!: string;
  @Prop(String, { nullable: true, example: 'PAYMENT' }) event_type!: string | null;
  @Prop(String, { example: 'processed' }) status!: string;
  @Prop(String, { nullable: true }) site_id!: string | null;
  @Prop(String, { nullable: true }) payment_transaction_id!: string | null;
  @Prop('integer') attempts!: number;
  @Prop(String, { nullable: true }) last_error!: string | null;
  @Prop('object', { description: 'The event as authenticated.' }) payload!: Record<string, unknown>;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { nullable: true, format: 'date-time' }) processed_at!: string | null;
}
