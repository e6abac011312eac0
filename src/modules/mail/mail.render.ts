import Handlebars from 'handlebars';
import type { MailKind, MailVariables, RenderedMail } from './mail.types.js';
import { TEMPLATES } from './templates/templates.js';

const html = Handlebars.create();
const text = Handlebars.create();

function paragraphsHtml(body: string): string {
  return body
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 16px">${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** Renders one e-mail kind into subject, HTML and text parts. Pure: variables in, strings out. */
export function renderMail(kind: MailKind, variables: MailVariables): RenderedMail {
  const template = TEMPLATES[kind];
  if (!template) throw new Error(`No template for mail kind ${kind}`);
  const vars = { first_name: 'there', ...variables };
  const subject = text.compile(template.subject, { noEscape: true })(vars);
  const bodyText = text.compile(template.body, { noEscape: true })(vars);
  const actionUrl = template.action ? text.compile(template.action.url, { noEscape: true })(vars) : undefined;
  const actionLabel = template.action
    ? text.compile(template.action.label, { noEscape: true })(vars)
    : undefined;
  const bodyHtml = paragraphsHtml(html.compile(template.body)(vars));
  const button = actionUrl
    ? `<p><a href="${Handlebars.escapeExpression(actionUrl)}" style="display:inline-block;padding:12px 20px;` +
      `background:#222;color:#fff;text-decoration:none;border-radius:4px">${Handlebars.escapeExpression(actionLabel ?? '')}</a></p>`
    : '';
  return {
    subject,
    text: `${bodyText}${actionUrl ? `\n\n${actionLabel}: ${actionUrl}` : ''}\n`,
    html:
      `<!doctype html><html><body style="font-family:sans-serif;color:#222;max-width:600px;margin:auto">` +
      `${bodyHtml}${button}</body></html>`,
  };
}
