import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
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
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
  isURL,
} from 'class-validator';
import { EMAIL_MAX_LENGTH } from '#app/common/column-limits.js';
import { HOST_NAME_MAX, isHostName } from '#app/common/net/host-policy.rules.js';
import { emailProblem } from './email.rules.js';
import { Bounded, type JsonBounds } from './json-bounds.js';

/**
 * Composite field decorators: validation and OpenAPI from one declaration, so the document cannot
 * drift from what the service accepts (STYLE §4). Types are always stated explicitly, so the document
 * is the same whether the code was compiled by tsc or by SWC under jest.
 */
interface Common {
  required?: boolean;
  description?: string;
  example?: unknown;
  /**
   * An optional field takes `null` (not given on a create; cleared on a partial update) and says so in the
   * document. `false`: a field the record cannot be without, which may be omitted but never `null` (400).
   */
  nullable?: boolean;
}

/** `null` is a value the field takes: an optional field's, unless it says `nullable: false`. */
export const takesNull = (o: Common): boolean => !o.required && o.nullable !== false;

/** May be omitted, never `null`: the field's other rules then refuse `null` (400). */
export function NotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** Required: present and not null. Optional: may be omitted; `null` passes only where `takesNull`. */
export function presence(o: Common): PropertyDecorator {
  if (o.required) return IsDefined();
  return takesNull(o) ? IsOptional() : NotNull();
}

function doc(o: Common, extra: ApiPropertyOptions): PropertyDecorator {
  const base = {
    required: !!o.required,
    description: o.description,
    example: o.example,
    // The document says what the validation takes (contract fuzzing found `null` taken, undocumented).
    nullable: takesNull(o) || undefined,
  };
  return ApiProperty({ ...base, ...extra } as ApiPropertyOptions);
}

/**
 * At most `max` characters as PostgreSQL counts them in a `varchar(max)` column: code points. class-validator's
 * `MaxLength` leaves emoji presentation selectors (U+FE0F) out of its count, so sixty "❤️" (120 code points)
 * passed a 100-character field and then failed its insert (a 500). Same message as `MaxLength`.
 */
export function MaxChars(max: number, options: { each?: boolean } = {}): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxChars',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || [...value].length <= max,
        defaultMessage: () => `$property must be shorter than or equal to ${max} characters`,
      },
    },
    options,
  );
}

export function Str(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  const max = o.max ?? 1000;
  return applyDecorators(
    presence(o),
    IsString(),
    MaxChars(max),
    ...(o.min !== undefined ? [MinLength(o.min)] : []),
    doc(o, { type: String, maxLength: max, ...(o.min !== undefined ? { minLength: o.min } : {}) }),
  );
}

export function Email(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    presence(o),
    IsString(),
    IsEmail({}, { message: 'must be an e-mail address' }),
    MaxLength(EMAIL_MAX_LENGTH),
    // Lower-cased, an address can outgrow its column; in `.invalid` it could take an erased account's
    // tombstone (see emailProblem).
    ValidateBy({
      name: 'emailProblem',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !emailProblem(value),
        defaultMessage: (args?: ValidationArguments) =>
          `$property ${typeof args?.value === 'string' ? (emailProblem(args.value) ?? '') : ''}`,
      },
    }),
    doc(
      { example: 'jane@example.com', ...o },
      { type: String, format: 'email', maxLength: EMAIL_MAX_LENGTH },
    ),
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
    MaxChars(o.maxLength ?? 500, { each: true }),
    doc(o, { type: [String], maxItems: o.maxItems ?? 100 }),
  );
}

/** What a free-form object may hold unless its field says less: stored and walked whole, it has a bound. */
export const OBJ_BOUNDS: JsonBounds = { maxDepth: 8, maxBytes: 64 * 1024 };

/** A free-form JSON object (metadata and the like), as deep and large as `bounds` allow (400 beyond). */
export function Obj(o: Common & { bounds?: JsonBounds } = {}): PropertyDecorator {
  const bounds = o.bounds ?? OBJ_BOUNDS;
  return applyDecorators(
    presence(o),
    IsObject(),
    Bounded(bounds),
    doc(o, {
      type: 'object',
      additionalProperties: true,
      description: `${o.description ? `${o.description} ` : ''}At most ${bounds.maxBytes / 1024} KB as JSON, ${bounds.maxDepth} levels deep.`,
    }),
  );
}

/** A nested object validated by its own DTO class; unknown fields inside it are refused too. */
export function Nested(type: () => new () => object, o: Common = {}): PropertyDecorator {
  return applyDecorators(presence(o), IsObject(), ValidateNested(), Type(type), doc(o, { type: type() }));
}

/**
 * A property of a response body: `null` where the record has no value, never omitted (DESIGN §4). A free-form
 * `object` says it holds any keys, which generated clients otherwise read as an object of none.
 */
export function Prop(
  type: ApiPropertyOptions['type'],
  o: { nullable?: boolean; example?: unknown; description?: string; isArray?: boolean; format?: string } = {},
): PropertyDecorator {
  const open = type === 'object' ? { additionalProperties: true } : {};
  return ApiProperty({ type, ...open, ...o } as ApiPropertyOptions);
}

/** Control characters (C0, DEL, C1) and Unicode line and paragraph separators, as a character class. */
const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029';

/**
 * One line of text: no control characters (C0, DEL, C1) and no Unicode line or paragraph separators.
 * For names and anything else that may reach an e-mail's subject or headers (CR/LF there is injection).
 */
export const ONE_LINE = new RegExp(`^[^${CONTROL_CHARACTERS}]*$`);

/** Each run of the characters `ONE_LINE` refuses: for text taken as it comes, made one line instead. */
export const CONTROL_RUN = new RegExp(`[${CONTROL_CHARACTERS}]+`, 'g');

export function OneLine(): PropertyDecorator {
  return Matches(ONE_LINE, { message: '$property must be one line of text, without control characters' });
}

/** `Str` for names: one line (see `OneLine`). */
export function Line(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(Str(o), OneLine());
}

/** A host to connect to by name or address (`isHostName`): not a URL, not `host:port`. */
export function HostName(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    presence(o),
    IsString(),
    ValidateBy({
      name: 'hostName',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isHostName(value),
        defaultMessage: () =>
          '$property must be a host name or an IP address (no scheme, port, path or spaces)',
      },
    }),
    doc(o, { type: String, maxLength: HOST_NAME_MAX }),
  );
}

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/**
 * An http(s) address: the one rule of every URL field the service stores and shows. A `javascript:`,
 * `data:` or `vbscript:` URL served to a browser as a link or an image is an attack, so only http(s) passes.
 */
export function WebUrl(o: Common & { max?: number; emptyIsAbsent?: boolean } = {}): PropertyDecorator {
  const max = o.max ?? 1000;
  return applyDecorators(
    // `emptyIsAbsent`: a client that sends "" for a URL it has not got (a form's empty field) means none.
    ...(o.emptyIsAbsent
      ? [Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))]
      : []),
    presence(o),
    IsString(),
    IsUrl(HTTP_URL, { message: '$property must be an http(s) URL' }),
    MaxChars(max),
    doc(o, { type: String, format: 'uri', maxLength: max }),
  );
}

/** The URLs of a list field: a JSON array of strings, or URLs separated by commas or white space. */
export function urlsOf(value: string): string[] | null {
  const text = value.trim();
  if (!text) return [];
  if (text.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(text);
      return Array.isArray(list) && list.every((u) => typeof u === 'string') ? list : null;
    } catch {
      return null;
    }
  }
  return text.split(/[\s,]+/).filter(Boolean);
}

/** A list of http(s) URLs in one string (`urlsOf`), each held to `WebUrl`'s rule. */
export function WebUrlList(o: Common & { max?: number } = {}): PropertyDecorator {
  const max = o.max ?? 20000;
  return applyDecorators(
    presence(o),
    IsString(),
    MaxChars(max),
    ValidateBy({
      name: 'webUrlList',
      validator: {
        validate: (value: unknown) => {
          const urls = typeof value === 'string' ? urlsOf(value) : null;
          return urls !== null && urls.every((u) => isURL(u, HTTP_URL));
        },
        defaultMessage: () =>
          '$property must list http(s) URLs (a JSON array, or separated by commas or spaces)',
      },
    }),
    doc(o, {
      type: String,
      maxLength: max,
      description: o.description ?? 'http(s) URLs: a JSON array, or separated by commas or spaces.',
    }),
  );
}
