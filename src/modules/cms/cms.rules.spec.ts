import { normalizeFieldName, readForm, signSubmission, verifySubmissionSignature } from './cms.rules.js';

describe('cms rules', () => {
  const schema = [
    { fieldName: 'Work Email', fieldType: 'email', fieldElementId: 'a' },
    { fieldName: 'First Name', fieldType: 'plain', fieldElementId: 'b' },
  ];

  it('matches field names without case, spaces or punctuation', () => {
    expect(normalizeFieldName('First Name')).toBe('firstname');
    expect(normalizeFieldName('e-mail_Address')).toBe('emailaddress');
  });

  it('takes the e-mail from the field typed email, and profile fields by name', () => {
    const person = readForm(
      {
        'Work Email': ' Jane@Example.com ',
        'First Name': 'Jane',
        'Last-Name': 'Doe',
        Phone: '+44 7700 900123',
        'Post Code': 'SW1A 1AA',
        Newsletter: 'true',
        Message: 'hello',
      },
      schema,
    );
    expect(person).toEqual({
      email: 'jane@example.com',
      profile: {
        first_name: 'Jane',
        last_name: 'Doe',
        phone_number: '+44 7700 900123',
        zip_code: 'SW1A 1AA',
      },
      accepts_marketing: true,
      name: 'Jane Doe',
    });
  });

  it('splits a single name field, and finds an e-mail field by name when none is typed', () => {
    const person = readForm({ Name: 'Ada King Lovelace', Email: 'ada@example.com' }, []);
    expect(person).toMatchObject({
      email: 'ada@example.com',
      profile: { first_name: 'Ada', last_name: 'King Lovelace' },
      name: 'Ada King Lovelace',
    });
    expect(person.accepts_marketing).toBeUndefined();
  });

  it('reads every value as one line, as registration takes a name', () => {
    const person = readForm(
      { Email: 'eve@example.com', 'First Name': 'Eve\r\nBcc: x', City: '\tLeeds\u2028' },
      [],
    );
    expect(person.profile).toMatchObject({ first_name: 'Eve Bcc: x', city: 'Leeds' });
  });

  it('has no e-mail when the address is not one, or longer than an account holds (254)', () => {
    expect(readForm({ Email: 'not an address' }, []).email).toBeNull();
    const at = (n: number) =>
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(n - 197)}.com`;
    expect(at(254)).toHaveLength(254);
    expect(readForm({ Email: at(254) }, []).email).toBe(at(254));
    expect(readForm({ Email: at(255) }, []).email).toBeNull();
  });

  it('has no e-mail when the address is one sign-in would refuse (stray punctuation, two addresses)', () => {
    for (const typed of ['sam@example.com,', 'eve,victim@example.com', 'sam@example.com; eve@example.com'])
      expect([typed, readForm({ Email: typed }, []).email]).toEqual([typed, null]);
  });

  it('accepts a signature over timestamp and raw body within 5 minutes, and nothing else', () => {
    const body = Buffer.from('{"triggerType":"form_submission"}');
    const now = 1_800_000_000_000;
    const ts = String(now - 60_000);
    const good = signSubmission('s3cret', ts, body);
    const check = (over: Partial<Parameters<typeof verifySubmissionSignature>[0]>) =>
      verifySubmissionSignature({
        secret: 's3cret',
        timestamp: ts,
        signature: good,
        rawBody: body,
        now,
        ...over,
      });
    expect(check({})).toBe(true);
    expect(check({ secret: 'other' })).toBe(false);
    expect(check({ secret: undefined })).toBe(false);
    expect(check({ rawBody: Buffer.from('{"triggerType":"x"}') })).toBe(false);
    expect(check({ now: now + 5 * 60_000 })).toBe(false);
    expect(check({ signature: 'zz' })).toBe(false);
    expect(check({ timestamp: undefined })).toBe(false);
  });
});
