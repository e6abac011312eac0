import Handlebars from 'handlebars';
import type { MailKind, MailVariables, RenderedMail } from './mail.types.js';
import { brandingOf, htmlLayout, safeUrl, textLayout } from './templates/layout.js';
import { TEMPLATES } from './templates/templates.js';

function withHelpers(instance: typeof Handlebars): typeof Handlebars {
  instance.registerHelper('pluralize', (count: unknown, one: string, many: string) =>
    Number(count) === 1 ? one : many,
  );
  return instance;
}

const html = withHelpers(Handlebars.create());
const text = withHelpers(Handlebars.create());

function paragraphsHtml(body: string): string {
  return body
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="margin:0 0 16px">${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** Values that are empty say nothing: the template's own defaults apply instead. */
function defaults(variables: MailVariables): MailVariables {
  const given = Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== null && v !== ''));
  const vars: MailVariables = { first_name: 'there', brand_name: given.site_name ?? '', ...given };
  // A brand address that is not http(s) gives way to the site's own.
  vars.brand_site_url = safeUrl(given.brand_site_url) ?? given.frontend_url ?? '';
  return vars;
}

/** Renders one e-mail kind into subject, HTML and text parts. Pure: variables in, strings out. */
export function renderMail(kind: MailKind, variables: MailVariables): RenderedMail {
  const template = TEMPLATES[kind];
  const vars = defaults(variables);
  const plain = (source: string): string => text.compile(source, { noEscape: true })(vars);
  const subject = plain(template.subject).replace(/\s+/g, ' ').trim();
  const actionUrl = template.action ? safeUrl(plain(template.action.url)) : null;
  const action =
    template.action && actionUrl ? { url: actionUrl, label: plain(template.action.label) } : undefined;
  const parts = {
    subject,
    bodyHtml: paragraphsHtml(html.compile(template.body)(vars)),
    bodyText: plain(template.body),
    action,
  };
  const branding = brandingOf(vars);
  return { subject, html: htmlLayout(branding, parts), text: textLayout(branding, parts) };
}
