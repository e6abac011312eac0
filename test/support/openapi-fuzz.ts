import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';

/**
 * Contract fuzzing from the committed `openapi.json` (issue 15): fast-check arbitraries derived from the
 * document's own schemas (valid values, and values that break exactly one rule), and an ajv validator for
 * every documented response. The test that uses them is `test/e2e/contract-fuzz.e2e-spec.ts`.
 */

/** A JSON Schema as OpenAPI 3.0 writes it (`nullable`, `example`), loosely typed on purpose. */
export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  example?: unknown;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
}

export interface Operation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface FoundOperation {
  method: Method;
  path: string;
  op: Operation;
}

export function loadDocument(root = process.cwd()): Document {
  return JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')) as Document;
}

export function operationsOf(doc: Document): FoundOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method as Method, path, op })),
  );
}

/** Follows `$ref`s (only local ones exist in the document). */
export function deref(doc: Document, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name] as Schema | undefined;
    if (!target) throw new Error(`unresolved ${current.$ref}`);
    current = target;
  }
  return current;
}

/**
 * `allOf: [{$ref}]` with `nullable` beside it (how @nestjs/swagger writes a nullable nested DTO) and plain
 * `$ref`s become one schema, so the generators see properties and types directly.
 */
export function flatten(doc: Document, schema: Schema): Schema {
  const resolved = deref(doc, schema);
  if (!resolved.allOf) return resolved;
  const merged: Schema = { ...resolved, allOf: undefined };
  for (const part of resolved.allOf) {
    const flat = flatten(doc, part);
    merged.type ??= flat.type;
    merged.properties = { ...(merged.properties ?? {}), ...(flat.properties ?? {}) };
    merged.required = [...(merged.required ?? []), ...(flat.required ?? [])];
    if (flat.enum) merged.enum = flat.enum;
    if (flat.items) merged.items = flat.items;
  }
  if (merged.properties && !Object.keys(merged.properties).length) delete merged.properties;
  return merged;
}

// ---------------------------------------------------------------------------------------------------
// Response validation

/** ajv 8 over the document: OpenAPI's `nullable` is an ajv keyword; `example` and the like are ignored. */
export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(doc: Document) {
    this.ajv = new Ajv({ strict: false, allErrors: true, discriminator: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ components: nullableRefs(doc.components) }, 'openapi.json');
  }

  /** Problems with one response, as readable lines; empty when it honours its documented response. */
  check(found: FoundOperation, status: number, contentType: string | undefined, body: unknown): string[] {
    const documented = found.op.responses[String(status)] as Operation['responses'][string] | undefined;
    if (!documented) {
      return [`status ${status} is not documented (documents ${Object.keys(found.op.responses).join(', ')})`];
    }
    const media = documented.content;
    if (!media || !Object.keys(media).length) {
      return body === undefined || body === '' || (body !== null && typeof body === 'object' && isEmpty(body))
        ? []
        : [`status ${status} documents no body but one came`];
    }
    const type = (contentType ?? '').split(';')[0].trim();
    const entry = media[type] as MediaType | undefined;
    if (!entry)
      return [`content type "${type}" is not documented for ${status} (${Object.keys(media).join(', ')})`];
    if (!entry.schema || !type.includes('json')) return [];
    const key = `${found.method} ${found.path} ${status} ${type}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(nullableRefs(entry.schema)));
      this.cache.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `body${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
}

const isEmpty = (value: object): boolean => Object.keys(value).length === 0;

/**
 * `{nullable: true, allOf: [{$ref}]}` is how @nestjs/swagger writes a nullable nested object, and what
 * generated clients (openapi-typescript) read as `T | null`. ajv applies `nullable` to the node's own
 * `type` only, so the `allOf` would still refuse `null`: spell the intent out as `anyOf` null or the ref.
 */
function nullableRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(nullableRefs) as T;
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, nullableRefs(v)])) as Schema;
  if (out.nullable && (out.allOf ?? out.$ref)) {
    const { nullable: _n, type: _t, allOf, $ref, ...rest } = out;
    return { ...rest, anyOf: [{ type: 'null' }, allOf ? { allOf } : { $ref }] } as T;
  }
  return out as T;
}

/** Local `#/components/...` refs of an inline schema, pointed at the schema the validator added. */
function rebase(schema: Schema): Schema {
  return JSON.parse(
    JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'),
  ) as Schema;
}

// ---------------------------------------------------------------------------------------------------
// Valid values

/** Values the world has, by field or parameter name: real ids make valid requests reach the business. */
export type Hints = Record<string, string[]>;

const SAFE_TEXT = fc.stringMatching(/^[A-Za-z0-9 ._-]{0,24}$/);

function isoDate(min: number, max: number): fc.Arbitrary<string> {
  return fc.integer({ min, max }).map((ms) => new Date(ms).toISOString());
}

function stringArb(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 30, Math.max(minLength, 30));
  const now = Date.UTC(2026, 10, 25);
  switch (schema.format) {
    case 'date-time':
      return isoDate(now - 400 * 86_400_000, now + 400 * 86_400_000);
    case 'date':
      return isoDate(Date.UTC(1940, 0, 1), Date.UTC(2020, 0, 1)).map((s) => s.slice(0, 10));
    case 'email':
      return fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/).map((s) => `${s}@example.com`);
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'uri':
      return fc.stringMatching(/^[a-z0-9]{0,12}$/).map((s) => `https://example.com/${s}`);
    default:
      break;
  }
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? 1000));
  }
  return fc.oneof(
    { weight: 3, arbitrary: SAFE_TEXT.filter((s) => s.length >= minLength && s.length <= maxLength) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
  );
}

function numberArb(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (integer ? -5 : -5);
  const max = schema.maximum ?? (integer ? 10_000 : 10_000);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, min + 1_000_000)) });
  // Prices are major units with two decimals: whole cents keep "12.10" exact (DESIGN §6).
  return fc
    .integer({ min: Math.ceil(min * 100), max: Math.floor(Math.min(max, min + 1_000_000) * 100) })
    .map((cents) => cents / 100);
}

/** An arbitrary of values that satisfy `schema`, preferring the world's real values for known names. */
export function valid(
  doc: Document,
  schema: Schema,
  hints: Hints = {},
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = flatten(doc, schema);
  const hinted = name ? hints[name] : undefined;
  let arb: fc.Arbitrary<unknown>;
  if (s.enum?.length) arb = fc.constantFrom(...s.enum);
  else if (s.oneOf ?? s.anyOf)
    arb = fc.oneof(...(s.oneOf ?? s.anyOf ?? []).map((x) => valid(doc, x, hints, name, depth + 1)));
  else arb = byType(doc, s, hints, depth);
  if (s.example !== undefined && s.type !== 'object')
    arb = fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(s.example) });
  if (hinted?.length)
    arb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: arb });
  if (s.nullable) arb = fc.option(arb, { nil: null, freq: 6 });
  return arb;
}

function byType(doc: Document, s: Schema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  switch (s.type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = s.items ? valid(doc, s.items, hints, undefined, depth + 1) : fc.anything();
      const minLength = s.minItems ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    default:
      return objectArb(doc, s, hints, depth);
  }
}

function objectArb(doc: Document, s: Schema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (!s.properties) {
    if (depth > 3) return fc.constant({});
    const values =
      typeof s.additionalProperties === 'object'
        ? valid(doc, s.additionalProperties, hints, undefined, depth + 1)
        : SAFE_TEXT;
    return fc.dictionary(fc.stringMatching(/^[a-z_]{1,12}$/), values, { maxKeys: 3 });
  }
  const required = new Set(s.required ?? []);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(s.properties)) {
    if (depth > 4 && !required.has(key)) continue;
    shape[key] = valid(doc, property, hints, key, depth + 1);
  }
  return fc.record(shape, { requiredKeys: [...required].filter((k) => k in shape) });
}

// ---------------------------------------------------------------------------------------------------
// Invalid values: each breaks exactly one rule the schema states

export interface Broken {
  value: unknown;
  /** Which rule it breaks, for the failure message. */
  why: string;
}

const HUGE = 'x'.repeat(200_000);

/**
 * A value that breaks `schema`'s type, bound or format (for a parameter or a property); null when none.
 * `inText`: the value travels as text (a query or path parameter), where a number or `null` becomes the
 * text "12345" or "null", which is a perfectly good string: only bounds, formats and enums break a string.
 */
export function breakValue(doc: Document, schema: Schema, pick: number, inText = false): Broken | null {
  const s = flatten(doc, schema);
  const options: Broken[] = [];
  const textual = inText && s.type === 'string';
  if (s.enum?.length) options.push({ value: 'not-one-of-the-enum', why: 'outside the enum' });
  switch (s.type) {
    case 'string':
      if (!textual) options.push({ value: 12345, why: 'a number for a string' });
      if (s.maxLength !== undefined)
        options.push({ value: 'y'.repeat(s.maxLength + 1), why: `longer than maxLength ${s.maxLength}` });
      if (s.minLength) options.push({ value: '', why: `shorter than minLength ${s.minLength}` });
      if (s.format) options.push({ value: `not-a-${s.format}`, why: `not a ${s.format}` });
      break;
    case 'integer':
      options.push({ value: 'twelve', why: 'text for an integer' });
      options.push({ value: 1.5, why: 'a fraction for an integer' });
      if (s.maximum !== undefined) options.push({ value: s.maximum + 1, why: `above maximum ${s.maximum}` });
      if (s.minimum !== undefined) options.push({ value: s.minimum - 1, why: `below minimum ${s.minimum}` });
      break;
    case 'number':
      options.push({ value: 'twelve', why: 'text for a number' });
      if (s.maximum !== undefined) options.push({ value: s.maximum + 1, why: `above maximum ${s.maximum}` });
      if (s.minimum !== undefined) options.push({ value: s.minimum - 1, why: `below minimum ${s.minimum}` });
      break;
    case 'boolean':
      options.push({ value: 'yes', why: 'text for a boolean' });
      break;
    case 'array':
      options.push({ value: { not: 'an array' }, why: 'an object for an array' });
      if (s.maxItems !== undefined && s.maxItems < 200)
        options.push({
          value: Array.from({ length: s.maxItems + 1 }, () => ({})),
          why: `more than maxItems ${s.maxItems}`,
        });
      break;
    default:
      if (s.properties || s.type === 'object')
        options.push({ value: 'not an object', why: 'text for an object' });
  }
  if (!s.nullable && !textual && (s.type || s.properties))
    options.push({ value: null, why: 'null where not nullable' });
  if (!options.length) return null;
  return options[pick % options.length];
}

/**
 * A body that breaks one rule of the request schema: a required field missing, one field of the wrong
 * type or out of bounds, a field the schema does not have, a huge string, or not an object at all.
 */
export function brokenBody(doc: Document, schema: Schema, base: unknown, pick: number): Broken {
  const s = flatten(doc, schema);
  const object =
    base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  const options: Array<() => Broken | null> = [];
  const required = s.required ?? [];
  const properties = Object.entries(s.properties ?? {});
  if (required.length) {
    options.push(() => {
      const key = required[pick % required.length];
      const { [key]: _dropped, ...rest } = object;
      return { value: rest, why: `required "${key}" missing` };
    });
  }
  if (properties.length) {
    options.push(() => {
      const [key, property] = properties[pick % properties.length];
      const broken = breakValue(doc, property, Math.floor(pick / properties.length));
      return broken && { value: { ...object, [key]: broken.value }, why: `"${key}": ${broken.why}` };
    });
    options.push(() => ({ value: { ...object, not_in_the_contract: 'x' }, why: 'an unknown field' }));
    const text = properties.filter(([, p]) => flatten(doc, p).type === 'string' && !flatten(doc, p).enum);
    if (text.length) {
      options.push(() => {
        const [key] = text[pick % text.length];
        return { value: { ...object, [key]: HUGE }, why: `"${key}": a 200 000-character string` };
      });
    }
  }
  options.push(() => ({ value: [object], why: 'an array for an object' }));
  options.push(() => ({ value: '{"unterminated": ', why: 'malformed JSON' }));
  for (let i = 0; i < options.length; i++) {
    const broken = options[(pick + i) % options.length]();
    if (broken) return broken;
  }
  return { value: '{"unterminated": ', why: 'malformed JSON' };
}

/**
 * A valid body with one field set to `null`, for every field and every field of a nested object: sampling
 * meets a given field's `null` rarely, and `null` is where a document and a validation most often part
 * (an optional field lets it through). `nullable`: whether the schema says the field takes it.
 */
export function nullBodies(
  doc: Document,
  schema: Schema,
  base: unknown,
): Array<{ value: unknown; why: string; nullable: boolean }> {
  if (!base || typeof base !== 'object' || Array.isArray(base)) return [];
  const object = base as Record<string, unknown>;
  const out: Array<{ value: unknown; why: string; nullable: boolean }> = [];
  for (const [key, property] of Object.entries(flatten(doc, schema).properties ?? {})) {
    const p = flatten(doc, property);
    out.push({ value: { ...object, [key]: null }, why: `"${key}": null`, nullable: !!p.nullable });
    const inner = object[key] ?? {};
    if (!p.properties || typeof inner !== 'object' || Array.isArray(inner)) continue;
    for (const [nested, q] of Object.entries(p.properties)) {
      out.push({
        value: { ...object, [key]: { ...inner, [nested]: null } },
        why: `"${key}.${nested}": null`,
        nullable: !!flatten(doc, q).nullable,
      });
    }
  }
  return out;
}
