import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ORDER_ROUTES } from '#app/common/http/order-routes.js';
import { AppConfig } from '#app/config/app-config.js';
import { finishDocument } from './document.rules.js';
import { OrderFailureDto, ProblemDto } from './problem.dto.js';

export const SITE_TITLE = 'Membership, raffle and rewards service';

/**
 * The tags in the order a newcomer needs them, each with one line. Every tag an operation uses must be
 * here (a test fails otherwise): a new feature adds its tags where an administrator would look for them.
 */
export const API_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'auth',
    description:
      'Start here: sign in for a token, then press Authorize. Also registration, refresh, sign-out, password and sign-in links.',
  },
  {
    name: 'admin: sites',
    description:
      'Sites (tenants): create one (superadmin), read and change its e-mail, SMTP and provider settings.',
  },
  {
    name: 'admin: raffles',
    description:
      'Create a raffle as a draft, change it, publish it (commits the draw seed), close it (publishes its ' +
      'ticket list), add postal entries, draw it, see the prizes not claimed yet.',
  },
  {
    name: 'raffles',
    description:
      'Published raffles as the public sees them (by id or item_id), and the server’s price for an order.',
  },
  {
    name: 'draws',
    description:
      'Check a draw: its proof (seed committed at publication, ticket list hash at the close, seed revealed at ' +
      'the draw) and its ticket list; the winners by first name and county; a winner claims the prize.',
  },
  {
    name: 'raffle entries',
    description: 'Enter a raffle with points or by the free route, and list your entries.',
  },
  {
    name: 'payments',
    description:
      'Sell tickets: create an order at either gateway (endpoints 3, 4), a payment (6); read one; the gateways’ webhooks.',
  },
  { name: 'admin: payments', description: 'A site’s payments, refunds, and the webhook inbox with replay.' },
  {
    name: 'admin: mail',
    description: 'The outbox: e-mails the log transport wrote instead of sending (the sandbox’s default).',
  },
  {
    name: 'admin: subscription tiers',
    description: 'Membership tiers of a site: create, change, list them all.',
  },
  { name: 'subscription tiers', description: 'A site’s active membership tiers, as the public sees them.' },
  {
    name: 'subscriptions',
    description:
      'Your memberships: start one (pay on the hosted form), read it, cancel it, give it another card.',
  },
  {
    name: 'admin: subscriptions',
    description:
      'A site’s memberships: list, cancel (with the cooling-off refund), upgrade, pause and resume.',
  },
  { name: 'users', description: 'Your own account: who you are, your profile, spend limit and self-pause.' },
  { name: 'admin: users', description: 'Find a site’s users; grant or remove the admin role (superadmin).' },
  {
    name: 'admin: discounts',
    description:
      'Discount brands, tags and codes: create single (endpoint 7) and bulk codes (8), change, delete, export.',
  },
  {
    name: 'discounts',
    description: 'Discount codes, brands and tags as users see them, with their own claims (endpoint 9).',
  },
  { name: 'rewards', description: 'Your points ledger.' },
  { name: 'admin: rewards', description: 'Add or remove points of a user of your site.' },
  {
    name: 'merch',
    description:
      'Merchandise: the products on sale, an order priced by the server and paid on the hosted form, the fulfilment provider’s callbacks.',
  },
  {
    name: 'admin: merch',
    description: 'Merch products of a site (create, change) and its orders with their items (endpoint 10).',
  },
  { name: 'cms', description: 'Form submissions from the website builder, which become members.' },
  {
    name: 'admin: cms',
    description: 'Replay a website-form submission (endpoint 20): the member is made or updated once.',
  },
  {
    name: 'admin: integrations',
    description:
      'Deliveries to the contact-list and analytics providers that failed every retry: see, send again.',
  },
  {
    name: 'gaming',
    description:
      'The spin wheel (endpoint 19): spin without an account, then claim the result as bonus entry credits.',
  },
  { name: 'ops', description: 'Liveness, readiness, Prometheus metrics, and running a scheduled job now.' },
];

const START_HERE = `Multi-site back end for memberships, prize draws and rewards.

**Start here** (the embedded sandbox, started as the README says: site \`main\`, admin \`admin@example.com\`):
1. **Log in**: \`POST /auth/login\` (tag *auth*), *Try it out* with its example, *Execute*; copy \`access_token\`.
2. **Authorise**: press **Authorize** (top right) and paste the token. It is kept across reloads and lasts
   15 minutes; \`POST /auth/refresh\` gives a new one.
3. **Create a site** (optional: \`main\` exists already): \`POST /admin/site-configs\`.
4. **Create a raffle**: \`POST /admin/raffles\` with its example, then \`POST /admin/raffles/{id}/publish\` with
   the \`id\` it answered.
5. **Sell a ticket**: \`POST /gatewayone/create-order\` with its example (no token needed), open the
   \`checkout_url\` it answers in a browser and press **Pay**. A background job enters the tickets and sends the
   e-mails within a second or two: \`GET /admin/outbox\` lists them, \`GET /payments/{id}\` with the
   \`order_id\` shows the payment.

A request acts on one site: the \`site_id\` it names (in the path, the query or the body) or its \`X-Site-Id\`
header, else the token's; a request naming two different sites is refused (400), and an admin naming another
site than its token's gets 403. A password reset ends every session of the account, its access tokens too.

Every request example works on a fresh sandbox when tried in this order; where one needs an id an earlier
answer gave (\`{id}\`, \`user_id\`, \`discount_brand_id\`…), its description says which.

Errors are RFC 9457 \`application/problem+json\` with a stable \`code\` and the \`request_id\`, except on the order
endpoints 3 and 4, which answer \`{success: false, error, error_code, message}\`. Each error status lists its codes
with an example body. Any route may also answer 503 \`DATABASE_UNAVAILABLE\` with \`Retry-After\` while the database
cannot be reached (a restart): send the same request again later.`;

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(SITE_TITLE)
    .setDescription(START_HERE)
    .setVersion('1')
    .addServer(app.get(AppConfig).publicBaseUrl, 'This service (PUBLIC_BASE_URL)')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  for (const tag of API_TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controller: string, method: string) => method,
    extraModels: [ProblemDto, OrderFailureDto],
    autoTagControllers: false,
  });
  return finishDocument(document, ORDER_ROUTES);
}

/** Swagger UI at /docs (persisted authorisation, links to operations), the document at /docs-json. */
export function mountSwagger(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: `${SITE_TITLE} · API console`,
    swaggerOptions: {
      persistAuthorization: true,
      displayRequestDuration: true,
      deepLinking: true,
      tryItOutEnabled: true,
    },
  });
}

/** Deterministic JSON (sorted keys) so the committed document diffs readably. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}
