import { createHmac } from 'node:crypto';
import { sameBytes } from '#app/common/crypto/constant-time.js';
import { normalizedEmail } from '#app/common/email-address.js';
import { isAcceptedEmail } from '#app/common/validation/email.rules.js';
import { CONTROL_RUN } from '#app/common/validation/fields.js';

/** How far a webhook's timestamp may be from now (DESIGN §7). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export interface FormSchemaField {
  fieldElementId?: string;
  fieldName: string;
  fieldType: string;
}

/** Profile fields a form may fill, with the most the profile keeps of each. */
export const PROFILE_FIELDS = {
  first_name: 100,
  last_name: 100,
  title: 50,
  organization: 200,
  phone_number: 40,
  address: 200,
  address_2: 200,
  city: 100,
  state_region: 100,
  zip_code: 20,
  country: 100,
  locale: 20,
  timezone: 64,
} as const;
export type ProfileField = keyof typeof PROFILE_FIELDS;

/** A form field's name as compared: no case, spaces or punctuation (`First Name` → `firstname`). */
export const normalizeFieldName = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const ALIASES: Partial<Record<string, ProfileField>> = {
  firstname: 'first_name',
  givenname: 'first_name',
  forename: 'first_name',
  lastname: 'last_name',
  surname: 'last_name',
  familyname: 'last_name',
  title: 'title',
  organization: 'organization',
  organisation: 'organization',
  company: 'organization',
  phone: 'phone_number',
  phonenumber: 'phone_number',
  telephone: 'phone_number',
  mobile: 'phone_number',
  address: 'address',
  address1: 'address',
  addressline1: 'address',
  street: 'address',
  address2: 'address_2',
  addressline2: 'address_2',
  city: 'city',
  town: 'city',
  towncity: 'city',
  state: 'state_region',
  stateregion: 'state_region',
  region: 'state_region',
  county: 'state_region',
  zip: 'zip_code',
  zipcode: 'zip_code',
  postcode: 'zip_code',
  postalcode: 'zip_code',
  country: 'country',
  locale: 'locale',
  timezone: 'timezone',
};

const MARKETING = new Set(['acceptsmarketing', 'marketing', 'marketingconsent', 'newsletter', 'optin']);
const FULL_NAME = new Set(['name', 'fullname', 'yourname']);

const text = (value: unknown): string | undefined => {
  // One line, as a name typed at registration must be: each run of control characters becomes a space.
  if (typeof value === 'string') return value.replace(CONTROL_RUN, ' ').trim() || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
};

const truthy = (value: unknown): boolean =>
  value === true || (typeof value === 'string' && /^(true|on|yes|1|checked)$/i.test(value.trim()));

export interface FormPerson {
  email: string | null;
  profile: Partial<Record<ProfileField, string>>;
  /** Set only when the form has a consent field. */
  accepts_marketing?: boolean;
  /** The full name, for the account's `name`. */
  name: string | null;
}

/**
 * Reads the person out of a form's data (DESIGN §7): the e-mail from the field whose schema type is
 * `email` (else a field named e-mail); other fields by name, matched without case, spaces or
 * punctuation; a single name field is split into first and last names when those are not given.
 */
export function readForm(data: Record<string, unknown>, schema: FormSchemaField[]): FormPerson {
  const emailField = schema.find((f) => f.fieldType.toLowerCase() === 'email')?.fieldName;
  const byNorm = new Map(Object.entries(data).map(([k, v]) => [normalizeFieldName(k), v]));
  const email =
    text(emailField ? data[emailField] : undefined) ??
    text(byNorm.get('email')) ??
    text(byNorm.get('emailaddress'));
  const profile: Partial<Record<ProfileField, string>> = {};
  let accepts: boolean | undefined;
  let fullName: string | undefined;
  for (const [key, value] of Object.entries(data)) {
    const norm = normalizeFieldName(key);
    const field = ALIASES[norm];
    const v = text(value);
    if (field && v) profile[field] = v.slice(0, PROFILE_FIELDS[field]);
    else if (MARKETING.has(norm)) accepts = truthy(value);
    else if (FULL_NAME.has(norm) && v) fullName = v;
  }
  if (fullName && !profile.first_name && !profile.last_name) {
    const [first, ...rest] = fullName.split(/\s+/);
    profile.first_name = first.slice(0, PROFILE_FIELDS.first_name);
    if (rest.length) profile.last_name = rest.join(' ').slice(0, PROFILE_FIELDS.last_name);
  }
  const name = fullName ?? ([profile.first_name, profile.last_name].filter(Boolean).join(' ') || null);
  return {
    email: email && isAcceptedEmail(email) ? normalizedEmail(email) : null,
    profile,
    ...(accepts !== undefined ? { accepts_marketing: accepts } : {}),
    name: name ? name.slice(0, 200) : null,
  };
}

/** The builder's side, for fakes and tests: the `x-webflow-signature` header value. */
export function signSubmission(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}:`).update(rawBody).digest('hex');
}

/**
 * `x-webflow-signature` = hex HMAC-SHA256 of `{x-webflow-timestamp}:{raw body}` under the secret, the
 * timestamp (milliseconds) within 5 minutes of now; compared in constant time.
 */
export function verifySubmissionSignature(input: {
  secret: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: Buffer | undefined;
  now: number;
}): boolean {
  const { secret, timestamp, signature, rawBody } = input;
  if (!secret || !timestamp || !signature || !rawBody) return false;
  if (!/^\d{1,16}$/.test(timestamp) || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  if (Math.abs(input.now - Number(timestamp)) > SIGNATURE_TOLERANCE_MS) return false;
  const expected = Buffer.from(signSubmission(secret, timestamp, rawBody), 'hex');
  return sameBytes(Buffer.from(signature, 'hex'), expected);
}

/** The webhook inbox's provider name for website forms. */
export const CMS_PROVIDER = 'cms';

/** A form submission's key in the webhook inbox: once per site and submission id. */
export function inboxKey(siteId: string, submissionId: string): string {
  return `${siteId}:${submissionId}`;
}
