/**
 * The fields a request body sent. A validated body is an instance of its DTO class, which (compiled for ES2022)
 * holds every field the class declares, `undefined` where the client sent none: `Object.keys` would name them all.
 */
export function sentFields<T extends object>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as Partial<T>;
}
