import 'reflect-metadata';
import { Bool, Int, Str } from './fields.js';
import { narrowerBody, narrowerFor } from './narrower-bodies.js';

class Wide {
  @Bool() only?: boolean;
  @Str({ max: 10 }) id?: string;
  @Int({ min: 1 }) quantity?: number;
}
const Narrow = narrowerBody(Wide, ['only', 'id']);

describe('narrowerFor: which DTO a body is validated as', () => {
  it('the narrower one when every key of the body is one of its fields', () => {
    expect(narrowerFor(Wide, { only: true, id: 'a' })).toBe(Narrow);
    expect(narrowerFor(Wide, { id: 42 })).toBe(Narrow);
    expect(narrowerFor(Wide, {})).toBe(Narrow);
  });

  it('none when the body has any other key, is not an object, or the DTO declared no narrower one', () => {
    expect(narrowerFor(Wide, { only: true, quantity: 2 })).toBeUndefined();
    expect(narrowerFor(Wide, { only: true, unknown: 1 })).toBeUndefined();
    for (const body of [null, undefined, 'text', 3, [{ only: true }]])
      expect(narrowerFor(Wide, body)).toBeUndefined();
    expect(narrowerFor(Narrow, { id: 'a' })).toBeUndefined();
    expect(narrowerFor(undefined, { id: 'a' })).toBeUndefined();
  });
});
