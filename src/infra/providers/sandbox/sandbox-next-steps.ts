import { escapeHtml, type PaidOutcome } from '#app/infra/providers/fake-support/fake-gateway.js';

/** Swagger UI's deep link to an operation: `#/<tag>/<operationId>`, spaces as %20. */
const op = (base: string, tag: string, operationId: string): string =>
  `${base}/docs#/${tag.replace(/ /g, '%20')}/${operationId}`;

/**
 * What the sandbox's pay pages say after Pay / Decline / Cancel: what the service does next and where to
 * watch it happen in the API (Swagger UI, authorised as an admin of the site).
 */
export function sandboxNextSteps(publicBaseUrl: string, gateway: string, outcome: PaidOutcome): string {
  const base = escapeHtml(publicBaseUrl);
  const id = outcome.reference
    ? `<code>${escapeHtml(outcome.reference)}</code>`
    : 'the order’s <code>order_id</code>';
  const site = outcome.siteId ? `?site_id=${escapeHtml(outcome.siteId)}` : '';
  const what = outcome.paid
    ? `<li>A background job confirms the payment with the gateway, enters the tickets and sends the purchase
and entry e-mails: they are in the outbox within a second or two. A buyer new to the site also gets a link
to set a password, which leads to the site’s pages and then to its entries.</li>`
    : `<li>A background job records the payment as <strong>${escapeHtml(outcome.state)}</strong>: nothing is
entered, and the spend it reserved is given back.</li>`;
  const pages = outcome.siteId
    ? `<li><a href="${base}/sandbox/sites/${escapeHtml(outcome.siteId)}">The site’s sandbox pages</a>, where e-mail
links lead for a site without a <code>frontend_url</code>.</li>`
    : '';
  return `<h2>What happens next</h2>
<ol><li>The gateway has told the service (its signed webhook to <code>POST /${escapeHtml(gateway)}/webhook</code>),
which keeps it in its inbox.</li>${what}</ol>
<h2>See it in the API</h2>
<p>In <a href="${base}/docs">Swagger UI</a>, authorised as an admin of the site (the README’s admin):</p>
<ul>
<li><a href="${op(base, 'admin: mail', 'listOutbox')}">The e-mails</a>: <code>GET /admin/outbox${site}</code>
(also the files under <code>DATA_DIR/outbox/</code>).</li>
<li><a href="${op(base, 'payments', 'getPayment')}">The payment</a>: <code>GET /payments/{id}</code> with id ${id};
or <a href="${op(base, 'admin: payments', 'listPayments')}">all payments</a>: <code>GET /admin/payments${site}</code>.</li>
<li><a href="${op(base, 'admin: payments', 'listInboundEvents')}">The webhook as received</a>:
<code>GET /admin/inbound-events</code>.</li>
${pages}</ul>`;
}
