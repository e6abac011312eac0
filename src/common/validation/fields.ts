import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

/**
 * Composite field decorators: validation and OpenAPI from one declaration, so the document cannot
 * drift from what the service accepts (STYLE §4). Types are always stated explicitly, so the document
 * is the same whether the code was compiled by tsc or by SWC under jest.
 */
interface Common {
  required?: boolean;
  description?: string;
  example?: unknown;
  nullable?: boolean;
}

function presence(o: Common): PropertyDecorator {
  return o.required ? IsDefined() : IsOptional();
}

function doc(o: Common, extra: ApiPropertyOptions): PropertyDecorator {
  const base = {
    required: !!o.required,
    description: o.description,
    example: o.example,
    nullable: o.nullable,
  };
  return ApiProperty({ ...base, ...extra } as ApiPropertyOptions);
}

export function Str(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  const max = o.max ?? 1000;
  return applyDecorators(
    presence(o),
    IsString(),
    MaxLength(max),
    ...(o.min !== undefined ? [MinLength(o.min)] : []),
    doc(o, { type: String, maxLength: max, ...(o.min !== undefined ? { minLength: o.min } : {}) }),
  );
}

export function Email(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    presence(o),
    IsString(),
    IsEmail({}, { message: 'must be an e-mail address' }),
    MaxLength(254),
    doc({ example: 'jane@example.com', ...o }, { type: String, format: 'email', maxLength: 254 }),
  );
}

export function Bool(o: Common = {}): PropertyDecorator {
  return applyDecorators(presence(o), IsBoolean(), doc(o, { type: Boolean }));
}

export function Int(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    presence(o),
    IsInt(),
    ...(o.min !== undefined ? [Min(o.min)] : []),
    ...(o.max !== undefined ? [Max(o.max)] : []),
    doc(o, { type: 'integer', minimum: o.min, maximum: o.max }),
  );
}

export function Num(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    presence(o),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    ...(o.min !== undefined ? [Min(o.min)] : []),
    ...(o.max !== undefined ? [Max(o.max)] : []),
    doc(o, { type: 'number', minimum: o.min, maximum: o.max }),
  );
}

export function StrArray(o: Common & { maxItems?: number; maxLength?: number } = {}): PropertyDecorator {
  return applyDecorators(
    presence(o),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 100),
    IsString({ each: true }),
    MaxLength(o.maxLength ?? 500, { each: true }),
    doc(o, { type: [String], maxItems: o.maxItems ?? 100 }),
  );
}

/** A free-form JSON object (metadata and the like). */
export function Obj(o: Common = {}): PropertyDecorator {
  return applyDecorators(presence(o), IsObject(), doc(o, { type: 'object', additionalProperties: true }));
}

/** A nested object validated by its own DTO class; unknown fields inside it are refused too. */
export function Nested(type: () => new () => object, o: Common = {}): PropertyDecorator {
  return applyDecorators(presence(o), IsObject(), ValidateNested(), Type(type), doc(o, { type: type() }));
}

/** A property of a response body: `null` where the record has no value, never omitted (DESIGN §4). */
export function Prop(
  type: ApiPropertyOptions['type'],
  o: { nullable?: boolean; example?: unknown; description?: string; isArray?: boolean; format?: string } = {},
): PropertyDecorator {
  return ApiProperty({ type, ...o } as ApiPropertyOptions);
}
