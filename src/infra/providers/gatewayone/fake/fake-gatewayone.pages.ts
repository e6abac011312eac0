import type { Request, Response, Router } from 'express';
import { handle, type NextSteps, page } from '#app/infra/providers/fake-support/fake-gateway.js';
import { classifyResultCode } from '#app/infra/providers/gatewayone/gatewayone.rules.js';
import type { FakeGatewayOne } from './fake-gatewayone.js';
import { DECLINE_CODE, payPageHtml, payUrl, SUCCESS_CODE, widgetScript } from './fake-gatewayone.wire.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The shopper's side of the fake, which a browser sees (no credentials, no controls): the widget script
 * a shop's page loads, and the hosted page where the shopper pays or declines.
 */
export function mountHostedPages(
  router: Router,
  gateway: FakeGatewayOne,
  options: { baseUrl: string; nextSteps?: NextSteps },
): void {
  router.get('/v1/paymentWidgets.js', (req, res) => widget(gateway, options.baseUrl, req, res));
  router.get('/pay/:id', (req, res) => payPage(gateway, req, res));
  router.post(
    '/pay/:id',
    handle((req, res) => payDecision(gateway, options.nextSteps, req, res)),
  );
}

function widget(gateway: FakeGatewayOne, baseUrl: string, req: Request, res: Response): void {
  const checkoutId = text(req.query.checkoutId);
  if (!gateway.payments.has(checkoutId)) {
    res.status(404).type('text/javascript').send('/* unknown checkout */\n');
    return;
  }
  // Loaded from the shop's own pages, on another origin.
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.type('text/javascript').send(widgetScript(payUrl(baseUrl, checkoutId)));
}

function payPage(gateway: FakeGatewayOne, req: Request, res: Response): void {
  const checkout = gateway.payments.get(String(req.params.id));
  if (!checkout) {
    res.status(404).type('html').send(page('Unknown checkout', '<h1>Unknown checkout</h1>'));
    return;
  }
  const action = `${req.baseUrl}/pay/${encodeURIComponent(checkout.id)}`;
  res.type('html').send(payPageHtml(checkout, action));
}

/**
 * Pay or Decline: the checkout is completed and its webhook sent before the shopper comes back, as with
 * the real gateway (usually); then back to the shop, or, with no return address, a page saying what follows.
 */
async function payDecision(
  gateway: FakeGatewayOne,
  nextSteps: NextSteps | undefined,
  req: Request,
  res: Response,
): Promise<void> {
  const checkout = gateway.payments.get(String(req.params.id));
  if (!checkout || classifyResultCode(checkout.resultCode) === 'succeeded') {
    res.status(409).type('html').send(page('Not payable', '<h1>This checkout cannot be paid</h1>'));
    return;
  }
  const decision = (req.body as Record<string, unknown> | undefined)?.decision;
  gateway.complete(checkout.id, decision === 'pay' ? SUCCESS_CODE : DECLINE_CODE);
  if (gateway.sendsWebhooks) await gateway.deliverWebhook(checkout.id).catch(() => 0);
  if (checkout.shopperResultUrl) {
    const back = new URL(checkout.shopperResultUrl);
    back.searchParams.set('id', checkout.id);
    back.searchParams.set('resourcePath', `/v1/checkouts/${checkout.id}/payment`);
    res.redirect(303, back.toString());
    return;
  }
  const paid = decision === 'pay';
  const next =
    nextSteps?.({
      reference: checkout.merchantTransactionId,
      siteId: checkout.customParameters.site_id,
      paid,
      state: paid ? 'succeeded' : 'failed',
    }) ?? '';
  const outcome = paid ? 'Payment accepted.' : 'Payment declined.';
  res.type('html').send(page('gatewayone sandbox payment', `<h1>${outcome}</h1>${next}`));
}
