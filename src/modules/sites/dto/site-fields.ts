import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, IsUrl, MinLength, ValidateIf } from 'class-validator';
import { MaxChars } from '#app/common/validation/fields.js';
import { Bounded } from '#app/common/validation/json-bounds.js';

/** Field decorators the site settings need beyond `#app/common/validation/fields.js`. */

/** An http(s) address; `null` clears it. */
export function HttpUrl(o: { max: number; description?: string; example?: string }): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
      { message: 'must be an http(s) URL' },
    ),
    MaxChars(o.max),
    ApiProperty({
      type: String,
      format: 'uri',
      maxLength: o.max,
      required: false,
      nullable: true,
      description: o.description,
      example: o.example,
    }),
  );
}

/** A host name, or a URL naming one; `null` clears it. */
export function Domain(o: { description?: string; example?: string }): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsUrl({ require_protocol: false, require_tld: false }, { message: 'must be a domain or URL' }),
    MaxChars(255),
    ApiProperty({ type: String, maxLength: 255, required: false, nullable: true, ...o }),
  );
}

export function OneOf(
  values: readonly string[],
  o: { description?: string; example?: string },
): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsIn(values),
    ApiProperty({ type: String, enum: values, required: false, nullable: true, ...o }),
  );
}

/** May be omitted (kept as it is) but never `null`: the column always has a value. */
export function PresentStr(o: { max: number; description?: string; example?: string }): PropertyDecorator {
  const { max, ...doc } = o; // `max` is this decorator's word; the schema's is `maxLength`.
  return applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    IsString(),
    MinLength(1),
    MaxChars(max),
    ApiProperty({ type: String, minLength: 1, maxLength: max, required: false, ...doc }),
  );
}

export function PresentObj(o: { description?: string; example?: unknown }): PropertyDecorator {
  // `required` is the property's flag here, not an object schema's list of required keys.
  const options: Record<string, unknown> = {
    type: 'object',
    additionalProperties: true,
    required: false,
    ...o,
  };
  return applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    IsObject(),
    ApiProperty(options),
  );
}

/** How deep `additional_settings` may nest, and how large it may be once serialised. */
export const SETTINGS_MAX_DEPTH = 8;
export const SETTINGS_MAX_BYTES = 64 * 1024;

/**
 * Free-form settings, bounded: every request carrying a site's settings (mail rendering, rules) walks
 * them, so their nesting and size are capped (`SETTINGS_MAX_DEPTH`, `SETTINGS_MAX_BYTES`).
 */
export function BoundedSettings(): PropertyDecorator {
  return Bounded({ maxDepth: SETTINGS_MAX_DEPTH, maxBytes: SETTINGS_MAX_BYTES });
}
