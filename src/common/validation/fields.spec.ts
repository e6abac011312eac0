import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Bool, Str } from './fields.js';

class Body {
  @Str({ required: true, max: 10 }) name!: string;
  @Str({ max: 10 }) description?: string;
  @Bool({ nullable: false }) active?: boolean;
}

const refused = (plain: object): string[] =>
  validateSync(plainToInstance(Body, { name: 'x', ...plain })).map((e) => e.property);

/** What `@nestjs/swagger` will write for a property: the options its decorator stored. */
const documented = (key: string): { nullable?: boolean } =>
  (Reflect.getMetadata('swagger/apiModelProperties', Body.prototype, key) ?? {}) as { nullable?: boolean };

describe('null in an optional field: the validation and the document say the same', () => {
  it('an optional field takes null (not given, or cleared in a partial update) and is documented nullable', () => {
    expect(refused({ description: null })).toEqual([]);
    expect(documented('description').nullable).toBe(true);
  });

  it('a field the record cannot be without (nullable: false) may be omitted but refuses null', () => {
    expect(refused({})).toEqual([]);
    expect(refused({ active: null })).toEqual(['active']);
    expect(documented('active').nullable).toBeUndefined();
  });

  it('a required field refuses null and is not documented nullable', () => {
    expect(refused({ name: null })).toEqual(['name']);
    expect(documented('name').nullable).toBeUndefined();
  });
});

describe('a text field’s length, counted as its varchar column counts it (code points)', () => {
  it('counts an emoji’s presentation selector, which MaxLength leaves out', () => {
    const heart = '\u2764\uFE0F'; // "❤️": two code points
    expect(refused({ description: heart.repeat(5) })).toEqual([]);
    expect(refused({ description: heart.repeat(6) })).toEqual(['description']);
  });

  it('counts a character outside the BMP (two UTF-16 units) once, as PostgreSQL does', () => {
    expect(refused({ description: '\u{1F600}'.repeat(10) })).toEqual([]);
    expect(refused({ description: '\u{1F600}'.repeat(11) })).toEqual(['description']);
  });
});
