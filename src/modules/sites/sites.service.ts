import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import { SecretBox } from '#app/infra/crypto/secret-box.service.js';
import type { SiteConfig } from './entities/site-config.entity.js';
import type { SecretField } from './sites.rules.js';
import { SitesRepository } from './sites.repository.js';

/** What other features ask of sites: does it exist, and its settings (secrets decrypted on request). */
@Injectable()
export class SitesService {
  constructor(
    private readonly sites: SitesRepository,
    private readonly box: SecretBox,
  ) {}

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

  /** A secret setting in plain text, for the adapter that uses it; null when unset. Never log it. */
  readSecret(site: SiteConfig, field: SecretField): string | null {
    const stored = site[field];
    return stored === null ? null : this.box.decrypt(stored);
  }
}
