import express, { type Request, type Response, type Router } from 'express';
import { magicLinkPage, passwordPage, type SitePage } from '#app/common/http/link-pages.js';
import { STAFF_PAGES_PATH } from './auth.rules.js';

const STAFF: SitePage = {
  siteId: 'staff',
  siteName: 'Staff',
  base: STAFF_PAGES_PATH,
  home: '/docs',
  note: 'pages of the service itself, for the links in staff accounts’ e-mails',
  console: true,
};

/**
 * Where the links in admins' and superadmins' e-mails lead (set or reset a password, sign in): pages this
 * service serves itself, in every mode, never a site's `frontend_url`, which a site's admin may point at a
 * server it runs to read a superadmin's reset token off the address. A sign-in lands on the API console,
 * authorised. Plain Express, outside the OpenAPI document.
 */
export function mountStaffPages(app: { use(path: string, router: Router): unknown }): void {
  const router = express.Router({ strict: false });
  const page =
    (render: () => string) =>
    (_req: Request, res: Response): void => {
      res.setHeader('Cache-Control', 'no-store');
      // The token rides in the query string: never pass the address on.
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.type('html').send(render());
    };
  router.get(
    '/set-password',
    page(() => passwordPage(STAFF, false)),
  );
  router.get(
    '/reset-password',
    page(() => passwordPage(STAFF, true)),
  );
  router.get(
    '/magic-link',
    page(() => magicLinkPage(STAFF)),
  );
  app.use(STAFF_PAGES_PATH, router);
}
