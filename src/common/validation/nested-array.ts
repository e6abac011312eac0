import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import { presence, takesNull } from './fields.js';

/** An array of objects, each validated by its own DTO class (unknown fields inside refused too). */
export function NestedArray(
  type: () => new () => object,
  o: {
    required?: boolean;
    nullable?: boolean;
    maxItems?: number;
    description?: string;
    example?: unknown;
  } = {},
): PropertyDecorator {
  const maxItems = o.maxItems ?? 100;
  return applyDecorators(
    presence(o),
    IsArray(),
    ArrayMaxSize(maxItems),
    ValidateNested({ each: true }),
    Type(type),
    ApiProperty({
      type: [type()],
      required: !!o.required,
      nullable: takesNull(o) || undefined,
      maxItems,
      description: o.description,
      example: o.example,
    }),
  );
}
