import { Injectable } from '@nestjs/common';
import express, { type Request, type Response, type Router } from 'express';
import { SANDBOX_SITE_PATH, SITE_ID_PATTERN } from '#app/modules/sites/sites.rules.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { entriesPage, magicLinkPage, passwordPage, type SitePage } from '#app/common/http/link-pages.js';

/**
 * `PROVIDERS=sandbox` only: the pages e-mail links lead to for a site without a `frontend_url`
 * (`siteLinkBase`), so the guest purchase → set a password → signed in → my entries loop closes on one
 * machine. Plain Express routes like the sandbox gateways: outside the OpenAPI document.
 */
@Injectable()
export class SandboxSite {
  constructor(private readonly sites: SitesService) {}

  mount(app: { use(path: string, router: Router): unknown }): void {
    const router = express.Router({ strict: false });
    const page =
      (render: (p: SitePage) => string) =>
      (req: Request, res: Response, next: (error?: unknown) => void): void => {
        this.render(String(req.params.siteId), render, res).catch(next);
      };
    router.get('/:siteId', page(entriesPage));
    router.get(
      '/:siteId/set-password',
      page((p) => passwordPage(p, false)),
    );
    router.get(
      '/:siteId/reset-password',
      page((p) => passwordPage(p, true)),
    );
    router.get('/:siteId/magic-link', page(magicLinkPage));
    app.use(SANDBOX_SITE_PATH, router);
  }

  private async render(siteId: string, render: (p: SitePage) => string, res: Response): Promise<void> {
    const site = SITE_ID_PATTERN.test(siteId) ? await this.sites.findBySiteId(siteId) : null;
    res.setHeader('Cache-Control', 'no-store');
    // The sign-in token rides in the query string: never pass the address on to another site.
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (!site) {
      res.status(404).type('html').send('<!doctype html><title>Unknown site</title><h1>Unknown site</h1>');
      return;
    }
    const base = `${res.req.baseUrl}/${encodeURIComponent(site.site_id)}`;
    res.type('html').send(render({ siteId: site.site_id, siteName: site.display_name, base }));
  }
}
