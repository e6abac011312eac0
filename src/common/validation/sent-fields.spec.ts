import { sentFields } from './sent-fields.js';

class Body {
  first_name?: string | null = undefined;
  city?: string | null = undefined;
  phone_number?: string | null = undefined;
}

describe('sentFields', () => {
  it('keeps what was sent, null included, and leaves out what was not', () => {
    const body = Object.assign(new Body(), { first_name: 'Ada', city: null });
    expect(Object.keys(body)).toHaveLength(3);
    expect(sentFields(body)).toEqual({ first_name: 'Ada', city: null });
  });
});
