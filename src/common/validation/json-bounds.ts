import { ValidateBy } from 'class-validator';

/** The depth of a JSON value: 0 for a scalar, 1 for a flat object or array (stops counting past `limit`). */
export function depthOf(value: unknown, limit = Infinity, depth = 0): number {
  if (value === null || typeof value !== 'object' || depth > limit) return depth;
  let deepest = depth + 1;
  for (const v of Object.values(value)) deepest = Math.max(deepest, depthOf(v, limit, depth + 1));
  return deepest;
}

/** How deep and how large (serialised, in bytes) a free-form JSON value may be. */
export interface JsonBounds {
  maxDepth: number;
  maxBytes: number;
}

export const withinBounds = (value: unknown, { maxDepth, maxBytes }: JsonBounds): boolean =>
  depthOf(value, maxDepth) <= maxDepth && Buffer.byteLength(JSON.stringify(value)) <= maxBytes;

/** A free-form JSON value held to `bounds` (`undefined`, a field not given, passes). */
export function Bounded(bounds: JsonBounds): PropertyDecorator {
  return ValidateBy({
    name: 'boundedJson',
    validator: {
      validate: (value: unknown) => value === undefined || value === null || withinBounds(value, bounds),
      defaultMessage: () =>
        `$property may nest ${bounds.maxDepth} levels deep and hold ${bounds.maxBytes / 1024} KB at most`,
    },
  });
}
