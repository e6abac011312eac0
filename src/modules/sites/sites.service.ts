import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import { ExpiringCopies } from '#app/common/expiring-copies.js';
import { SecretBox } from '#app/infra/crypto/secret-box.service.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { SiteConfig } from './entities/site-config.entity.js';
import type { SecretField } from './sites.rules.js';
import { type SiteHotFacts, SitesRepository } from './sites.repository.js';

/**
 * How long an instance trusts its copy of a site's `additional_settings` (the rules features derive from
 * them: points rates and the like). The instance that saves a change forgets its copy at once; others
 * pick the change up within this.
 */
export const SITE_SETTINGS_TTL_MS = 30_000;

/** What other features ask of sites: does it exist, and its settings (secrets decrypted on request). */
@Injectable()
export class SitesService {
  private readonly settingsCache = new ExpiringCopies<SiteHotFacts | null>(SITE_SETTINGS_TTL_MS);

  constructor(
    private readonly sites: SitesRepository,
    private readonly box: SecretBox,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * A site's `additional_settings` (null: no such site), from this instance's copy when it is fresh:
   * hot paths (every paid order's points) read the site's rules without reading its row.
   */
  async settingsOf(siteId: string): Promise<Record<string, unknown> | null> {
    return (await this.hotFacts(siteId))?.settings ?? null;
  }

  /** Which outside providers the site has keys for (cached like its settings): no key, nothing to send. */
  async integrationsOf(siteId: string): Promise<{ contacts: boolean; analytics: boolean }> {
    return (await this.hotFacts(siteId))?.integrations ?? { contacts: false, analytics: false };
  }

  /**
   * "No such site" is never kept: a site may be created on another instance a moment later (or on this one,
   * right after a request named its id), and a kept null would hide its rules, limits and provider keys from
   * this instance for the copy's lifetime.
   */
  private hotFacts(siteId: string): Promise<SiteHotFacts | null> {
    return this.settingsCache.get(
      siteId,
      () => this.sites.settingsOf(siteId),
      (facts) => facts !== null,
    );
  }

  /** A site's settings changed: this instance forgets its copy once the change has committed. */
  settingsChanged(siteId: string): void {
    this.tx.afterCommit(() => this.settingsCache.forget(siteId));
  }

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
