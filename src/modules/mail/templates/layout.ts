import Handlebars from 'handlebars';
import type { MailVariables } from '../mail.types.js';

/** The look of every e-mail: the site's name and address, restyled by a raffle's mailer_email_params. */
export interface Branding {
  brandName: string;
  siteUrl: string | null;
  logoUrl: string | null;
  title: string | null;
  language: string;
  year: string;
  unsubscribe: string | null;
  preferences: string | null;
  colors: { accent: string; bg: string; buttonText: string; footerText: string; text: string };
}

const COLOUR = /^(#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]{3,20})$/i;
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const colour = (v: unknown, fallback: string): string => {
  const value = text(v);
  return value && COLOUR.test(value) ? value : fallback;
};

/** An http(s) URL, or null: values go into href/src attributes, so nothing else is let through. */
export function safeUrl(v: unknown): string | null {
  const value = text(v);
  if (!value || !/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value).toString();
  } catch {
    return null;
  }
}

export function brandingOf(vars: MailVariables): Branding {
  const year = vars.current_year;
  return {
    brandName: text(vars.brand_name) ?? text(vars.site_name) ?? '',
    siteUrl: safeUrl(vars.brand_site_url) ?? safeUrl(vars.frontend_url),
    logoUrl: safeUrl(vars.brand_logo_url),
    title: text(vars.email_title),
    language: LANGUAGE.test(String(vars.language ?? '')) ? String(vars.language) : 'en',
    year: typeof year === 'number' || typeof year === 'string' ? String(year) : '',
    unsubscribe: safeUrl(vars.unsubscribe),
    preferences: safeUrl(vars.unsubscribe_preferences),
    colors: {
      accent: colour(vars.color_accent, '#1f2937'),
      bg: colour(vars.color_bg, '#f4f4f5'),
      buttonText: colour(vars.color_button_text, '#ffffff'),
      footerText: colour(vars.color_footer_text, '#6b7280'),
      text: colour(vars.color_text_primary, '#111827'),
    },
  };
}

const e = (s: string): string => Handlebars.escapeExpression(s);

export interface LayoutParts {
  subject: string;
  /** Body paragraphs, already escaped HTML. */
  bodyHtml: string;
  bodyText: string;
  action?: { url: string; label: string };
}

export function htmlLayout(b: Branding, parts: LayoutParts): string {
  const c = b.colors;
  const name = e(b.brandName);
  const header = b.logoUrl
    ? `<img src="${e(b.logoUrl)}" alt="${name}" style="max-height:48px;border:0">`
    : `<strong style="font-size:20px">${name}</strong>`;
  const linkedHeader = b.siteUrl ? `<a href="${e(b.siteUrl)}" style="color:${c.text}">${header}</a>` : header;
  const button = parts.action
    ? `<p style="margin:24px 0"><a href="${e(parts.action.url)}" style="display:inline-block;padding:12px 20px;` +
      `background:${c.accent};color:${c.buttonText};text-decoration:none;border-radius:4px">` +
      `${e(parts.action.label)}</a></p>`
    : '';
  const links = [
    b.siteUrl ? `<a href="${e(b.siteUrl)}" style="color:${c.footerText}">${name}</a>` : name,
    b.unsubscribe ? `<a href="${e(b.unsubscribe)}" style="color:${c.footerText}">Unsubscribe</a>` : '',
    b.preferences ? `<a href="${e(b.preferences)}" style="color:${c.footerText}">E-mail preferences</a>` : '',
  ].filter(Boolean);
  return (
    `<!doctype html><html lang="${e(b.language)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(b.title ?? parts.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:${c.bg}">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${c.bg}"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;` +
    `color:${c.text};font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">` +
    `<tr><td style="padding:24px 32px 0">${linkedHeader}</td></tr>` +
    (b.title
      ? `<tr><td style="padding:16px 32px 0"><h1 style="margin:0;font-size:22px">${e(b.title)}</h1></td></tr>`
      : '') +
    `<tr><td style="padding:24px 32px">${parts.bodyHtml}${button}</td></tr>` +
    `<tr><td style="padding:16px 32px 24px;font-size:12px;color:${c.footerText}">` +
    `${b.year ? `&copy; ${e(b.year)} ` : ''}${links.join(' &middot; ')}</td></tr>` +
    `</table></td></tr></table></body></html>`
  );
}

export function textLayout(b: Branding, parts: LayoutParts): string {
  const lines = [parts.bodyText.trim()];
  if (parts.action) lines.push(`${parts.action.label}: ${parts.action.url}`);
  const footer = [`${b.year ? `© ${b.year} ` : ''}${b.brandName}`, b.siteUrl].filter(Boolean).join('\n');
  lines.push(`-- \n${footer}`);
  if (b.unsubscribe) lines.push(`Unsubscribe: ${b.unsubscribe}`);
  if (b.preferences) lines.push(`E-mail preferences: ${b.preferences}`);
  return `${lines.join('\n\n')}\n`;
}
