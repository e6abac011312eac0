import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import type { SiteConfig } from './entities/site-config.entity.js';
import { SitesRepository } from './sites.repository.js';

@Injectable()
export class SitesService {
  constructor(private readonly sites: SitesRepository) {}

  findBySiteId(siteId: string, manager?: EntityManager): Promise<SiteConfig | null> {
    return this.sites.findBySiteId(siteId, manager);
  }

  /** A site named by a registration must exist (404 UNKNOWN_SITE, DESIGN §10). */
  async requireSite(siteId: string): Promise<SiteConfig> {
    const site = await this.sites.findBySiteId(siteId);
    if (!site) throw new AppException(HttpStatus.NOT_FOUND, 'UNKNOWN_SITE', `There is no site "${siteId}".`);
    return site;
  }

  ensureSite(siteId: string, displayName: string, frontendUrl: string | null): Promise<void> {
    return this.sites.ensure({ site_id: siteId, display_name: displayName, frontend_url: frontendUrl });
  }
}
