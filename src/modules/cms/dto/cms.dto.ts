import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, ValidateNested } from 'class-validator';
import { Nested, Obj, Prop, Str } from '#app/common/validation/fields.js';

export class FormSchemaFieldDto {
  @Str({ max: 200, example: 'email-field' }) fieldElementId?: string;
  @Str({ required: true, max: 200, example: 'Email' }) fieldName!: string;
  @Str({ required: true, max: 50, example: 'email' }) fieldType!: string;
}

export class FormSubmissionPayloadDto {
  @Str({
    required: true,
    min: 1,
    max: 200,
    example: '6321a2b9c3f5e1001f2c1a7e',
    description: 'Idempotency: once per id.',
  })
  id!: string;

  @Str({ max: 200, example: 'Join the club' }) name?: string;
  @Str({ max: 200, example: '6321a2b9c3f5e1001f2c1a70' }) formId?: string;
  @Str({ max: 200, example: 'f1e2d3c4-b5a6-4789-9abc-def012345678' }) formElementId?: string;
  @Str({ max: 200, example: '6321a2b9c3f5e1001f2c1a71' }) pageId?: string;
  @Str({ max: 1000, example: '/join' }) publishedPath?: string;
  // Bounded by what the inbox keeps of it (`inbound_events.site_id`): longer was a 500 after the signature held.
  @Str({ max: 64, example: 'main', description: 'The builder’s site; replays act on your own site.' })
  siteId?: string;
  @Str({ max: 64, example: '2026-01-15T10:30:00.000Z' }) submittedAt?: string;

  @IsObject()
  @Obj({
    required: true,
    example: {
      Email: 'new.member@example.com',
      'First Name': 'Sam',
      'Last Name': 'Taylor',
      Phone: '+447700900456',
    },
  })
  data!: Record<string, unknown>;

  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => FormSchemaFieldDto)
  @ApiProperty({ type: [FormSchemaFieldDto], required: false })
  schema?: FormSchemaFieldDto[];
}

/** Endpoint 20 (and the live webhook's body): a `form_submission` event. */
export class ReplaySubmissionDto {
  // Bounded by the inbox's `event_type`, as `siteId` by its `site_id`.
  @Str({ max: 60, example: 'form_submission' }) triggerType?: string;

  @Nested(() => FormSubmissionPayloadDto, { required: true })
  payload!: FormSubmissionPayloadDto;
}

/** What processing a submission did. */
export class SubmissionResultDto {
  @Prop(String, { example: '6321a2b9c3f5e1001f2c1a7e' }) submission_id!: string;
  @Prop(String, { format: 'uuid', nullable: true }) user_id!: string | null;
  @Prop(Boolean, { example: true }) user_created!: boolean;
  @Prop(Boolean, { example: false, description: 'Processed before: nothing was done again.' })
  duplicate!: boolean;
  @Prop([String], { example: ['user_created', 'profile_updated', 'mail_cms_new_user', 'contact_list_add'] })
  actions!: string[];
}

export class CmsWebhookReceivedDto {
  @Prop(Boolean, { example: true }) received!: boolean;
  @Prop(Boolean, { example: false, description: 'This submission was delivered before.' })
  duplicate!: boolean;
}
