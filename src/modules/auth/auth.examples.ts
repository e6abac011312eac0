/**
 * Who the document's request examples act as: the README's first admin and a newcomer the register
 * example makes. The README's start command uses the same values.
 */
export const EXAMPLE_ADMIN = { email: 'admin@example.com', password: 'a-long-admin-password' } as const;
export const EXAMPLE_NEWCOMER = {
  email: 'newcomer@example.com',
  password: 'a-newcomer-passphrase-42',
} as const;
/** The newcomer's password once the password-set example has run (the account deletion example sends it). */
export const EXAMPLE_NEWCOMER_NEW_PASSWORD = 'another-long-passphrase-43';

/** Stand-ins the reader replaces with a value an earlier answer or e-mail gave. */
export const EXAMPLE_REFRESH_TOKEN = 'paste-the-refresh_token-login-answered';
export const EXAMPLE_MAIL_TOKEN = 'paste-the-token-from-the-e-mail-link';
