import type { MailKind } from '../mail.types.js';

export interface MailTemplate {
  subject: string;
  /** Body paragraphs in Handlebars; rendered into both the HTML and the text part. */
  body: string;
  /** Optional call to action: the link variable and the button text. */
  action?: { url: string; label: string };
}

/**
 * The project's own templates. Variables always available: site_name, frontend_url, first_name;
 * each kind adds its own (link, expires_minutes, …).
 */
export const TEMPLATES: Partial<Record<MailKind, MailTemplate>> = {
  password_reset: {
    subject: 'Reset your {{site_name}} password',
    body:
      'Hello {{first_name}},\n\nSomeone asked to reset the password of your {{site_name}} account. ' +
      'The link below works once and expires in {{expires_minutes}} minutes.\n\n' +
      'If it was not you, ignore this e-mail: your password stays as it is.',
    action: { url: '{{link}}', label: 'Choose a new password' },
  },
  password_set: {
    subject: 'Set your {{site_name}} password',
    body:
      'Hello {{first_name}},\n\nAn account was made for you on {{site_name}}. Choose a password to sign in; ' +
      'the link works once and expires in {{expires_minutes}} minutes.',
    action: { url: '{{link}}', label: 'Set my password' },
  },
  magic_link: {
    subject: 'Your {{site_name}} sign-in link',
    body:
      'Hello {{first_name}},\n\nUse the link below to sign in to {{site_name}}. It works once and expires in ' +
      '{{expires_minutes}} minutes.\n\nIf you did not ask for it, ignore this e-mail.',
    action: { url: '{{link}}', label: 'Sign in' },
  },
  welcome: {
    subject: 'Welcome to {{site_name}}',
    body: 'Hello {{first_name}},\n\nThank you for joining {{site_name}}. Your account is ready.',
    action: { url: '{{frontend_url}}', label: 'Visit {{site_name}}' },
  },
};
