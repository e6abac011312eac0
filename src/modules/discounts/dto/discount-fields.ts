import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { MaxChars } from '#app/common/validation/fields.js';
import { IsTimestamp } from '#app/common/validation/timestamp.js';

/** An optional ISO 8601 date-time string (`2025-06-01T00:00:00Z`); `null` clears it on update. */
export function DateTime(o: { description?: string; example?: string } = {}): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsString(),
    MaxChars(40),
    IsTimestamp('must be an ISO 8601 date-time', { strictSeparator: true }),
    ApiProperty({
      type: String,
      format: 'date-time',
      required: false,
      nullable: true,
      description: o.description,
      example: o.example ?? '2025-06-01T00:00:00Z',
    }),
  );
}

/** An optional boolean in a query string: only `true` and `false` are accepted. */
export function QueryBool(o: { description?: string } = {}): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    ),
    IsBoolean({ message: 'must be true or false' }),
    ApiProperty({ type: Boolean, required: false, description: o.description }),
  );
}
