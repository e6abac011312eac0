import { HostPolicy } from '#app/common/net/host-policy.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { AppConfig } from '#app/config/app-config.js';
import { SecretBox } from '#app/infra/crypto/secret-box.service.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { CreateSiteConfigDto, UpdateSiteConfigDto } from './dto/site-config.dto.js';
import type { SiteConfigDto } from './dto/site-config-response.dto.js';
import type { SiteConfig } from './entities/site-config.entity.js';
import { toSiteConfigDto } from './sites.mapper.js';
import { SitesRepository, type SiteValues } from './sites.repository.js';
import {
  missingMailSettings,
  SECRET_FIELDS,
  type SecretField,
  secretChange,
  secretsToResend,
} from './sites.rules.js';
import { SitesService } from './sites.service.js';

const isSecret = (field: string): field is SecretField =>
  (SECRET_FIELDS as readonly string[]).includes(field);

/** Administration of site configurations (endpoint 18 and DESIGN §10's site rows). */
@Injectable()
export class SiteConfigsService {
  constructor(
    private readonly repo: SitesRepository,
    private readonly sites: SitesService,
    private readonly box: SecretBox,
    private readonly tx: TransactionRunner,
    private readonly activity: ActivityLogService,
    private readonly config: AppConfig,
    private readonly hosts: HostPolicy,
  ) {}

  /** In production a site may not point the service at private addresses (DESIGN §11): 400 per field. */
  private async checkHosts(changes: Partial<SiteConfig>): Promise<void> {
    const problems = [];
    for (const field of ['smtp_host', 'frontend_url'] as const) {
      const value = changes[field];
      const why = typeof value === 'string' ? await this.hosts.refusal(value) : null;
      if (why) problems.push({ field, message: `${field} ${why}` });
    }
    if (problems.length) throw AppException.validation(problems);
  }

  async create(body: CreateSiteConfigDto, actor: AuthUser, meta: RequestMeta): Promise<SiteConfigDto> {
    const changes = this.changesFrom(body, null);
    this.checkMailSettings({ ...changes }, changes);
    await this.checkHosts(changes);
    await this.tx.run(async (manager) => {
      if (!(await this.repo.insert(changes, manager)))
        throw AppException.conflict('SITE_EXISTS', `A site "${body.site_id}" already exists.`);
      await this.audit('site_config_created', body.site_id, Object.keys(changes), actor, meta, manager);
    });
    return this.get(body.site_id);
  }

  async get(siteId: string): Promise<SiteConfigDto> {
    const site = await this.repo.findBySiteId(siteId);
    if (!site) throw AppException.notFound('Site');
    return this.toDto(site);
  }

  /** A partial update: omitted fields keep their values, `null` clears one (secrets included). */
  async update(
    siteId: string,
    body: UpdateSiteConfigDto,
    actor: AuthUser,
    meta: RequestMeta,
  ): Promise<SiteConfigDto> {
    await this.checkHosts({ smtp_host: body.smtp_host, frontend_url: body.frontend_url });
    await this.tx.run(async (manager) => {
      const site = await this.repo.lockBySiteId(siteId, manager);
      if (!site) throw AppException.notFound('Site');
      const resend = secretsToResend(body, site, this.sites.readSecret(site, 'smtp_password'));
      if (resend.length)
        throw AppException.unprocessable(
          'SECRET_REQUIRED',
          'The SMTP password must be sent again when the server it logs in to changes.',
          resend,
        );
      const changes = this.changesFrom(body, site);
      this.checkMailSettings({ ...site, ...changes }, changes);
      if (!Object.keys(changes).length) return;
      await this.repo.update(siteId, changes, manager);
      this.sites.settingsChanged(siteId);
      await this.audit('site_config_updated', siteId, Object.keys(changes), actor, meta, manager);
    });
    return this.get(siteId);
  }

  async list(limit: number, cursor?: string): Promise<SiteConfigDto[]> {
    const rows = await this.repo.list(limit, cursor);
    return rows.map((site) => this.toDto(site));
  }

  private toDto(site: SiteConfig): SiteConfigDto {
    return toSiteConfigDto(site, (field) => this.sites.readSecret(site, field));
  }

  /** The columns to write: sent fields as they are, secrets encrypted (or kept, or cleared). */
  private changesFrom(body: object, current: SiteConfig | null): SiteValues {
    const changes: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(body) as Array<[string, unknown]>) {
      if (value === undefined) continue;
      if (!isSecret(field)) {
        changes[field] = value;
        continue;
      }
      const plain = current ? this.sites.readSecret(current, field) : null;
      const change = secretChange(value as string | null, plain);
      if (change.kind === 'clear') changes[field] = null;
      if (change.kind === 'set') changes[field] = this.box.encrypt(change.value);
    }
    return changes;
  }

  private checkMailSettings(site: SiteValues, changes: SiteValues): void {
    const missing = missingMailSettings(
      {
        email_provider: site.email_provider ?? null,
        smtp_host: site.smtp_host ?? null,
        has_mailer_api_key: !!site.mailer_api_key,
        mailer_master_template_id: site.mailer_master_template_id ?? null,
      },
      // A service whose MAILER_BASE_URL went away must still let admins edit other settings.
      !!this.config.mailerBaseUrl || !('email_provider' in changes),
    );
    if (missing.length)
      throw AppException.unprocessable(
        'MAIL_SETTINGS_INCOMPLETE',
        'The chosen email_provider cannot send with these settings.',
        missing,
      );
  }

  /** Who changed which settings; names only, never values (secrets among them). */
  private async audit(
    type: string,
    siteId: string,
    fields: string[],
    actor: AuthUser,
    meta: RequestMeta,
    manager: EntityManager,
  ): Promise<void> {
    await this.activity.record(
      {
        userId: actor.id,
        siteId,
        type,
        description: type === 'site_config_created' ? 'Site created' : 'Site settings changed',
        resourceType: 'site_config',
        resourceId: siteId,
        metadata: { fields: fields.sort() },
      },
      meta,
      manager,
    );
  }
}
