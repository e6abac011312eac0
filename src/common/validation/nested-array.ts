import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsOptional, ValidateNested } from 'class-validator';

/** An array of objects, each validated by its own DTO class (unknown fields inside refused too). */
export function NestedArray(
  type: () => new () => object,
  o: { required?: boolean; maxItems?: number; description?: string; example?: unknown } = {},
): PropertyDecorator {
  const maxItems = o.maxItems ?? 100;
  return applyDecorators(
    o.required ? IsDefined() : IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    ValidateNested({ each: true }),
    Type(type),
    ApiProperty({
      type: [type()],
      required: !!o.required,
      maxItems,
      description: o.description,
      example: o.example,
    }),
  );
}
